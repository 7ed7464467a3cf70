# Trace-safe control: slicing with negative and open bounds, cat and stack. Constant
# indices stay constants in both routes; only the traced input shape is fixed.
import torch
from torch import Tensor


def slice_cat(x: Tensor):
    left = x[:, :2]
    right = x[:, 2:]
    swapped = torch.cat([right, left], dim=1)
    ends = torch.stack([x[0], x[-1]], dim=0)
    return swapped, ends, x[1:3, 1:-1]
