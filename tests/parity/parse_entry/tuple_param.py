# A Tuple[int, int] entry parameter (issue 16 item 5), given as a list of two ints:
# unpacked and indexed at conversion time (prim::TupleUnpack), used as pooling sizes.
import torch
import torch.nn.functional as F
from torch import Tensor
from typing import Tuple


def tuple_param(x: Tensor, size: Tuple[int, int], scale: Tuple[float, int]) -> Tensor:
    h, w = size
    y = F.adaptive_avg_pool2d(x, (h, w))
    return y * scale[0] + scale[1] + size[0]
