# Early returns inside data-dependent branches: a trace follows one of three exits and
# records only that path (zeros, a clamp, or `y + 1`); the parsed graph merges the three
# returns into one prim::If result.
import torch
from torch import Tensor


def early_return(x: Tensor) -> Tensor:
    if x.sum() < 0:
        return torch.zeros_like(x)
    y = x * 2
    if y.max() > 10:
        return y.clamp(min=-10.0, max=10.0)
    return y + 1
