# The pooling modules and nn.Flatten: MaxPool2d with return_indices, ceil_mode and
# padding; MaxPool1d; AvgPool2d/AvgPool1d; AdaptiveAvgPool2d/1d; AdaptiveMaxPool2d
# (with and without indices) to an output larger than its input; an unbatched input.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.mp = nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True, return_indices=True)
        self.mp1 = nn.MaxPool1d(2, dilation=2)
        self.ap = nn.AvgPool2d((3, 2), stride=(1, 2), padding=(1, 0), count_include_pad=False)
        self.ap1 = nn.AvgPool1d(3, ceil_mode=True)
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.aap1 = nn.AdaptiveAvgPool1d(6)
        self.amp = nn.AdaptiveMaxPool2d((5, 3))
        self.ampi = nn.AdaptiveMaxPool2d(2, return_indices=True)
        self.flat = nn.Flatten()

    def forward(self, x):
        m, idx = self.mp(x)
        a = self.ap(x)
        g = self.flat(self.gap(x))
        rows = x.flatten(2)
        p1 = self.mp1(rows)
        a1 = self.ap1(rows)
        q = self.aap1(rows)
        big = self.amp(x[0])
        v, vi = self.ampi(x)
        total = (m * m).sum() + a.tanh().sum() + (g * g).sum() + p1.sum() + (a1 * a1).sum()
        total = total + q.sigmoid().sum() + (big * big).sum() + v.sum()
        return total, m, idx, a, g, p1, a1, q, big, v, vi
