# A dict kept by __init__ (a vocabulary, a table of scales): frozen when the module is
# converted, as its other plain attributes are. Reads with a key known at conversion
# time are its constants; a key known only at run time (`k`) reads it when the graph
# runs (aten::get); iterating over it is a prim::Loop; `dict(self.index)` is a copy
# the graph may change.
import torch
import torch.nn as nn
from torch import Tensor
from typing import Tuple


class Vocab(nn.Module):
    def __init__(self):
        super().__init__()
        self.index = {"a": 0, "b": 1, "c": 2}
        self.scales = {0: 0.5, 1: 2.0}
        self.fc = nn.Linear(3, 3)

    def forward(self, x: Tensor, k: int) -> Tuple[Tensor, int, bool]:
        i = self.index["b"]
        y = self.fc(x) * self.scales.get(k, 1.0)
        if "c" in self.index:
            y = y + float(self.index["c"])
        total = 0
        for name, j in self.index.items():
            total = total + j * len(name)
        local = dict(self.index)
        local["d"] = 3
        return y[:, i], total + len(local), k in self.scales
