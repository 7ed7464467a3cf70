# A configurable residual MLP as library code writes it: a builder taking *dims and
# keyword-only options, layers made by a comprehension over zip(dims[:-1], dims[1:]),
# the activation chosen by name and kept as a function value, a lambda as the
# residual's projection, and a nested helper function in forward.
from typing import Callable

import torch
import torch.nn as nn
import torch.nn.functional as F

ACTIVATIONS = ("relu", "gelu", "tanh")
DEFAULT_EPS = 1e-5


def make_mlp(*dims, bias=True, final_act=False):
    layers = []
    for i, (d_in, d_out) in enumerate(zip(dims[:-1], dims[1:])):
        layers.append(nn.Linear(d_in, d_out, bias=bias))
        if i < len(dims) - 2 or final_act:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class ResidualMLP(nn.Module):
    def __init__(self, dim=6, hidden=12, depth=3, *, activation="gelu", eps=DEFAULT_EPS):
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}")
        self.blocks = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(dim, eps=eps), make_mlp(dim, hidden, dim)) for _ in range(depth)]
        )
        self.act: Callable[..., torch.Tensor] = F.gelu if activation == "gelu" else torch.tanh
        self.project = lambda t: t * 0.5
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        def residual(block, h):
            return h + self.project(block(h))

        for block in self.blocks:
            x = residual(block, x)
        feats = [self.act(x[..., i::2]) for i in range(2)]
        return self.head(x), torch.cat(feats, dim=-1)
