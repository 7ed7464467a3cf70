# item() and int() turn tensor values into Python numbers: a trace bakes them in as
# constants (`scale`, `k`), so the traced graph divides by the example's maximum and adds
# its argmax on every later input.
import torch
from torch import Tensor


def item_arith(x: Tensor, y: Tensor):
    scale = x.abs().max().item()
    k = int(x.argmax())
    z = y / scale + k
    shift = 1.0 if scale > 2.0 else 0.0
    return z - shift, k
