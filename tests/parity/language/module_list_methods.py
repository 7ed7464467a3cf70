# nn.ModuleList / nn.Sequential grown as published code grows them: append, extend
# (from a list or a generator) and insert; indexing (also negative), len, iteration and
# reversed() in forward, which the parse route unrolls.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4)])
        self.blocks.extend([nn.Linear(4, 4), nn.Tanh()])
        self.blocks.extend(nn.Linear(4, 4) for _ in range(2))
        self.blocks.insert(1, nn.ReLU())
        self.blocks.append(nn.Sigmoid())
        self.head = nn.Sequential(nn.Linear(4, 3))
        self.head.append(nn.ReLU())
        self.head.extend([nn.Linear(3, 2)])
        self.head.insert(0, nn.Tanh())

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        y = x
        for block in reversed(self.blocks):
            y = block(y) if isinstance(block, nn.Linear) else y
        return self.head(x), y, len(self.blocks), len(self.head), self.blocks[-2](x)
