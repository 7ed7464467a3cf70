# typing annotations as model code writes them: Optional, List, Tuple, Dict, Any,
# Union on helper parameters, returns and annotated assignments; math functions and
# constants in forward.
import math
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
from torch import Tensor


class Block(nn.Module):
    scale: float = 2.0
    names: List[str] = ["a", "b"]

    def __init__(self, width: int = 4, extra: Optional[Dict[str, Any]] = None) -> None:
        super().__init__()
        self.proj = nn.Linear(width, width)
        self.width: int = width

    def helper(self, x: Tensor, bias: Optional[Tensor] = None,
               k: Union[int, float] = 1) -> Tuple[Tensor, int]:
        y: Tensor = self.proj(x) * k
        return y, self.width

    def forward(self, x: Tensor) -> List[Tensor]:
        y, w = self.helper(x, k=math.sqrt(self.scale))
        z = y / math.sqrt(w) + math.pi - math.floor(2.5) + math.log(math.e)
        return [z, torch.exp(-z * math.cos(0.0))]
