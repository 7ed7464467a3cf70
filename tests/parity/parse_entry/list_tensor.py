# A List[Tensor] entry parameter (issue 16 item 5): tensors given as a list of tensor
# specs, concatenated, stacked and summed in a loop.
import torch
from torch import Tensor
from typing import List


def list_tensor(xs: List[Tensor], w: Tensor) -> Tensor:
    total = torch.zeros_like(w)
    for t in xs:
        total = total + t * w
    return torch.cat(xs, dim=0).sum(0) + torch.stack(xs).mean(0) + total
