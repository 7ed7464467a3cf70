# List methods on lists whose length is known only when the graph runs (issue 16 item
# 4): insert, pop, item assignment, len, indexing with a run-time index, list() as a
# copy (later appends do not reach it), +, +=, extend, slicing, iteration, and a
# second name for the same list (an alias sees every write).
import torch
from torch import Tensor
from typing import List


def lists_methods(x: Tensor, n: int) -> Tensor:
    outs: List[Tensor] = []
    for t in range(n):
        outs.append(x * float(t + 1))
    outs.insert(0, x)
    outs.insert(-1, -x)
    y = outs.pop()
    z = outs.pop(0)
    outs[0] = y + z
    k = len(outs)
    w = outs[k - 1]
    c = list(outs)
    alias = outs
    alias.append(w * 3.0)
    d = outs + c
    d += [z]
    d.extend(outs[1:])
    total = torch.zeros_like(x)
    for e in d:
        total = total + e
    scratch = [x, x]
    scratch[1] = total
    scratch.pop(0)
    return total + torch.stack(d).sum(0) * float(len(c)) + scratch[0] + float(len(outs[::2]))
