# Optional values known only when the graph runs (issue 16 items 3 and 4): an
# Optional[Tensor] and an Optional[float] input, and a variable that is None on one
# path. `is None` / `is not None` is aten::__is__ / aten::__isnot__ in the parse route,
# and the arm where the value is not None reads it through prim::unchecked_cast, as
# torch.jit.script refines it (also after an early return).
import torch
from torch import Tensor
from typing import Optional


def optional_refine(x: Tensor, bias: Optional[Tensor] = None,
                    scale: Optional[float] = None) -> Tensor:
    y = x * 2.0
    if bias is not None:
        y = y + bias
    if scale is None:
        s = 1.0
    else:
        s = scale
    h: Optional[Tensor] = None
    if bool(y.sum() > 0):
        h = torch.tanh(y) * s
    if h is None:
        return y - 1.0
    return h + 1.0
