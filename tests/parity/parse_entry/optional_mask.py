# An unannotated parameter with a default of None (issue 16 item 1): PyTorch code
# writes `mask=None` and leaves the mask out when it has none. The parse route takes it
# as Optional[Tensor] (null or left out in an inputs file: the default applies), and
# `if mask is not None:` reads it through prim::unchecked_cast.
import torch
import torch.nn as nn


class MaskedAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(4, 4)
        self.k = nn.Linear(4, 4)

    def forward(self, x, mask=None):
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / 2.0
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        return torch.softmax(scores, dim=-1)
