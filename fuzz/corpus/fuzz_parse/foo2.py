# The textbook's foo2 with `range(10)` for its `torch.range(10)` (see errors/).
# The trip count is a constant, so tracing unrolls ten adds and stays correct
# (an `info` finding: same answers, bigger graph); parsing keeps one prim::Loop.
import torch
from torch import Tensor


def foo2(s: Tensor) -> Tensor:
    for i in range(10):
        s += i
    return s
