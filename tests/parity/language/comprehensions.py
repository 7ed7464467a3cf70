# List, dict and set comprehensions and generator expressions, as model code writes
# them: sum(...) and any()/all() over a generator, torch.cat / torch.stack of a list
# comprehension, a nested comprehension with a condition, a dict comprehension read
# back by key.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([nn.Linear(4, 2) for _ in range(3)])
        self.sizes = [h.out_features for h in self.heads]

    def forward(self, x):
        outs = [h(x) for h in self.heads]
        y = torch.cat([o * (i + 1) for i, o in enumerate(outs)], dim=1)
        z = torch.stack([o.sum(1) for i, o in enumerate(outs) if i != 1])
        total = sum(o.mean() for o in outs)
        pairs = [(i, j) for i in range(3) for j in range(i) if i != j]
        squares = [k * k for k in range(0, 8, 2)]
        flag = any(s > 1 for s in self.sizes) and all(s == 2 for s in self.sizes)
        print(pairs, squares, flag)
        return y, z, total + squares[2], len(pairs)
