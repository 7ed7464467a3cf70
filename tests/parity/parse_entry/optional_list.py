# An Optional[List[int]] entry parameter with a default of None (issue 16 item 5): a
# shape to reshape to, or null / left out to keep the input's.
import torch
from torch import Tensor
from typing import List, Optional


def optional_list(x: Tensor, shape: Optional[List[int]] = None, scale: float = 1.0) -> Tensor:
    if shape is not None:
        x = x.reshape(shape)
    return x * scale
