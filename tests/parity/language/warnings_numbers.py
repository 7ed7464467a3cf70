# warnings.warn in __init__ (Python's `file:line: UserWarning: message` on stderr;
# the run goes on) and numbers checks: isinstance(x, numbers.Number / Integral /
# Real) on config values in __init__ and on arguments in forward, where the parse
# route decides them from the static types.
import numbers
import warnings

import torch
import torch.nn as nn


def scale_of(value):
    if isinstance(value, numbers.Integral):
        return float(value * 2)
    if isinstance(value, numbers.Real):
        return value / 2
    return 1.0


class Net(nn.Module):
    def __init__(self, dropout=0.25, width=4):
        super().__init__()
        if not isinstance(width, numbers.Integral):
            raise TypeError("width must be an int")
        if dropout > 0.2:
            warnings.warn("dropout above 0.2 slows training")
        self.fc = nn.Linear(3, width)
        self.kinds = (isinstance(dropout, numbers.Number), isinstance(True, numbers.Integral),
                      isinstance("a", numbers.Number), isinstance(width, numbers.Real))

    def forward(self, x):
        h = self.fc(x) * scale_of(3) + scale_of(0.5)
        return h, self.kinds, isinstance(x, numbers.Number), isinstance(x.shape[0], numbers.Integral)
