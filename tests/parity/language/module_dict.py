# nn.ModuleDict as published models use it: built from a dict, an OrderedDict and a
# list of pairs, grown by item assignment and update(); read by constant key, by
# iteration (keys), keys()/values()/items(), len and `in` in forward. State_dict names
# are `heads.cls.weight`. The parse route unrolls the iteration and picks each module
# by its key at conversion time.
from collections import OrderedDict

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 3), "reg": nn.Linear(4, 1)})
        self.heads["aux"] = nn.Linear(4, 2)
        self.heads.update([("extra", nn.Linear(4, 2))])
        self.acts = nn.ModuleDict(OrderedDict([("relu", nn.ReLU()), ("tanh", nn.Tanh())]))
        self.stem = nn.ModuleDict([("proj", nn.Linear(3, 4))])
        self.head_names = list(self.heads.keys())
        self.has_aux = "aux" in self.heads and "missing" not in self.heads
        self.count = len(self.heads)

    def forward(self, x):
        h = self.acts["tanh"](self.stem["proj"](x))
        for act in self.acts.values():
            h = act(h)
        sums = [self.heads[k](h).sum(1) for k in self.heads]
        total = torch.zeros(x.shape[0])
        for name, head in self.heads.items():
            if name != "reg":
                total = total + head(h).mean(1)
        for i, key in enumerate(self.heads.keys()):
            total = total + i * self.heads[key](h)[:, 0]
        n = len(self.heads) + self.count
        return torch.stack(sums, 1), total * n, self.has_aux, "reg" in self.heads
