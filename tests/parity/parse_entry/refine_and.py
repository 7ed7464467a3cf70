# Optional refinement through `and` / `or` (issue 16 item 4), as torch.jit.script
# refines: both names in the arm where `x is not None and y is not None` holds, the
# right operand of `mask is not None and mask.any()` sees mask refined, `assert a is not
# None and b is not None` refines both after it, `if a is None or b is None: return`
# refines both after the early return, and `b if b is not None else zero` refines the
# arm it reads.
import torch
from torch import Tensor
from typing import Optional


def refine_and(x: Tensor, y: Optional[Tensor] = None, mask: Optional[Tensor] = None,
               a: Optional[Tensor] = None, b: Optional[float] = None) -> Tensor:
    out = x * 2.0
    if y is not None and a is not None:
        out = out + y * a
    if mask is not None and bool(mask.any()):
        out = out.masked_fill(mask, 0.0)
    bb = b if b is not None else 0.5
    out = out * bb
    if not (y is None or a is None):
        out = out - y
    if a is None or b is None:
        return out
    assert y is not None and mask is not None
    return out + a * b + y + mask.float()
