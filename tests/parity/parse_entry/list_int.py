# List[int] entry parameters (issue 16 item 5): a shape for view and the dims of a
# permute, from lists in the inputs file, indexed and measured.
import torch
from torch import Tensor
from typing import List


def list_int(x: Tensor, shape: List[int], dims: List[int]) -> Tensor:
    y = x.view(shape).permute(dims)
    return y * dims[0] + len(shape)
