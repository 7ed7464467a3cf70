# A Python loop over `x.shape[0]`: tracing reads the size as a plain int, unrolls the
# loop that many times and bakes the count in; a trace made on 3 rows is wrong (its
# shape guard fails) on 5 rows, while the parsed prim::Loop takes its count from x.
import torch
from torch import Tensor


def shape_loop(x: Tensor) -> Tensor:
    assert x.dim() == 2, "expected a matrix"
    acc = torch.zeros(x.shape[1])
    for i in range(x.shape[0]):
        acc = acc + x[i] * (i + 1)
    return acc
