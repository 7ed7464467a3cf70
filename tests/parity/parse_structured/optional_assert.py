# `assert w is not None` refines an Optional[Tensor] for the rest of the function in the
# parse route (prim::unchecked_cast after the assert's prim::If), as torch.jit.script does.
import torch
from torch import Tensor
from typing import Optional


def optional_assert(x: Tensor, w: Optional[Tensor] = None) -> Tensor:
    assert w is not None, "w is required"
    y = torch.tanh(x * w)
    for i in range(x.size(0)):
        y = y + w
    return y
