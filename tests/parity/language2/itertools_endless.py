# itertools' endless iterators as model code uses them to number and alternate layers:
# count() and cycle() stopped by zip() with a finite list, by islice(), and by a for
# loop's break; repeat() without a count under zip().
import itertools
from itertools import count, cycle, islice

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        acts = cycle([nn.ReLU(), nn.Tanh()])
        widths = [4, 6, 6, 3]
        self.layers = nn.ModuleList()
        for i, (a, b), act in zip(count(), zip(widths, widths[1:]), acts):
            self.layers.append(nn.Sequential(nn.Linear(a, b), act))
        self.ids = list(islice(count(10, 5), 3))
        self.signs = list(islice(cycle([1, -1]), 5))
        self.scales = [s for _, s in zip(range(3), itertools.repeat(0.5))]
        self.floats = list(islice(count(0.5, 0.25), 1, 4))
        found = -1
        for n in count(1):
            if n * n > 20:
                found = n
                break
        self.found = found

    def forward(self, x):
        for layer, s in zip(self.layers, self.scales):
            x = layer(x) * s
        return x, self.ids, self.signs, self.floats, self.found
