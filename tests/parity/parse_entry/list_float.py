# A List[float] entry parameter (issue 16 item 5), given as a list in the inputs file:
# a run-time list in the parse route (its length is known only when the graph runs),
# iterated by a prim::Loop, indexed and measured.
import torch
from torch import Tensor
from typing import List


def list_float(x: Tensor, scales: List[float]) -> Tensor:
    for s in scales:
        x = x * s
    return x + scales[0] + float(len(scales))
