# An nn.Module with a plain attribute (`self.n`), an nn.Parameter and a helper method:
# `range(self.n)` has a constant trip count (tracing unrolls it: info, not lossy) and the
# helper call is inlined in both routes.
import torch
import torch.nn as nn
from torch import Tensor


class Refiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 3
        self.proj = nn.Linear(4, 4)
        self.scale = nn.Parameter(torch.full([4], 0.5))

    def step(self, h: Tensor) -> Tensor:
        return torch.tanh(self.proj(h)) * self.scale + h

    def forward(self, x: Tensor) -> Tensor:
        h = x
        for i in range(self.n):
            h = self.step(h)
        return h
