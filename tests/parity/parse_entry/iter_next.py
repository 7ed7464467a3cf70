# An iterator advanced by several next() calls (issue 16 item 3): over a module list, a
# tuple, a list and a range known at conversion time, and a parameters() generator kept
# in a variable. The parse route keeps the iterator's position at conversion time:
# next() is the item it has reached, `for m in it` the items left.
import torch
import torch.nn as nn


class Stages(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(5)])
        self.scales = (0.5, 2.0, -1.0)

    def forward(self, x):
        it = iter(self.layers)
        first = next(it)
        second = next(it)
        x = second(torch.relu(first(x)))
        for m in it:
            x = torch.tanh(m(x))
        done = next(it, None)
        if done is None:
            x = x + 1.0
        s = iter(self.scales)
        x = x * next(s)
        x = x + next(s) * next(s)
        offsets = iter([1.0, 2.0, 3.0])
        next(offsets)
        for o in offsets:
            x = x - o
        steps = iter(range(1, 10, 4))
        x = x * next(steps) + next(steps)
        params = self.parameters()
        w = next(params)
        b = next(params)
        return x, w.sum() + b.sum()
