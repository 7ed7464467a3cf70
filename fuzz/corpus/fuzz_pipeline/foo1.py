# The textbook's foo1 (its @torch.jit.script dropped: this file runs as plain PyTorch).
# `x < y` on one-element tensors picks a branch from data: a trace keeps one of
# `x + y` / `torch.square(y)`, the parsed graph keeps both under a prim::If.
import torch
from torch import Tensor


def foo1(x: Tensor, y: Tensor, z: Tensor) -> Tensor:
    if x < y:
        s = x + y
    else:
        s = torch.square(y)
    return s
