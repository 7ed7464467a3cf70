# torch.finfo / torch.iinfo as attention code uses them (the mask fill value
# torch.finfo(x.dtype).min, an eps from torch.finfo(torch.float32)), their repr and
# attributes, and round(x, ndigits) of floats and ints (Python's correctly rounded
# decimals: round(2.675, 2) is 2.67) in forward.
import math

import torch
import torch.nn as nn


class MaskedScores(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = torch.finfo(torch.float32).eps
        self.big = torch.iinfo(torch.int64).max
        self.labels = "%s %s %d" % (torch.finfo(), torch.iinfo(torch.long), torch.finfo(torch.float).bits)

    def forward(self, x, mask):
        fill = torch.finfo(x.dtype).min
        scores = x.masked_fill(mask, fill).softmax(-1)
        tiny = torch.finfo(scores.dtype).tiny
        limit = torch.iinfo(mask.long().dtype).min
        digits = [round(math.sqrt(d), 3) for d in range(1, 4)]
        ints = round(1250, -2) + round(1350, -2) + round(-1250, -2) + round(17, 1)
        stats = round(2.675, 2) + round(0.5) + round(1.5, 0) + round(1234.5678, -2)
        print(self.labels)
        print(digits, ints, stats, round(scores.sum().item(), 4))
        return scores + self.eps + tiny, fill, limit, self.big, digits, ints, stats
