# A Dict[int, Tensor] filled in a loop of run-time length (`n` is an input): each trip
# writes an entry (aten::_set_item inside the prim::Loop), an existing key keeps its
# place when written again, and the dict is read by key, by `in` and by iterating over
# it (its keys, in insertion order) after the loop.
import torch
from torch import Tensor
from typing import Dict, Tuple


def dict_int_keys(x: Tensor, n: int) -> Tuple[Tensor, int, bool, bool]:
    d: Dict[int, Tensor] = {}
    for i in range(n):
        d[i * 2] = x * float(i)
    d[0] = x + 10.0
    total = torch.zeros_like(x)
    for k in d:
        total = total * 0.5 + d[k] * float(k + 1)
    return total, len(d), 2 in d, 3 not in d
