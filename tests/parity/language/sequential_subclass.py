# Subclasses of nn.Sequential passing their modules on with super().__init__(*mods),
# one with its own forward calling super().forward(x); a subclass of nn.ModuleList
# (super(Blocks, self).__init__(layers)) iterated in forward; nn.Sequential(*layers) of a
# list built in a loop; `*pair` spread into a call in forward.
import torch
import torch.nn as nn


class Stack(nn.Sequential):
    def __init__(self, width, depth):
        layers = []
        for _ in range(depth):
            layers.append(nn.Linear(width, width))
            layers.append(nn.Tanh())
        super().__init__(*layers)


class Residual(nn.Sequential):
    def __init__(self, width):
        super(Residual, self).__init__(nn.Linear(width, width), nn.ReLU())

    def forward(self, x):
        return x + super().forward(x)


class Blocks(nn.ModuleList):
    def __init__(self, width, n):
        layers = []
        for _ in range(n):
            layers.append(nn.Linear(width, width))
        super(Blocks, self).__init__(layers)


def mix(a, b, w=0.25):
    return a * w + b * (1 - w)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.stack = Stack(4, 2)
        self.res = Residual(4)
        blocks = [nn.Linear(4, 4), nn.Sigmoid()]
        self.head = nn.Sequential(*blocks)
        self.blocks = Blocks(4, 3)

    def forward(self, x):
        pair = (self.stack(x), self.res(x))
        h = x
        for block in self.blocks:
            h = torch.relu(block(h))
        return self.head(mix(*pair)), len(self.stack), h, len(self.blocks)
