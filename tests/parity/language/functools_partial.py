# functools.partial as torchvision passes it: a norm layer with its eps bound
# (`norm_layer = partial(nn.BatchNorm2d, eps=1e-3)`, or None for the default), a
# module factory called in __init__, and a partial of a function kept in an attribute
# and called in forward (the parse route inlines its callee with the stored arguments).
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_add(x, y, scale=1.0):
    return x + scale * y


class Block(nn.Module):
    def __init__(self, channels, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self.conv = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn = norm_layer(channels)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        norm_layer = partial(nn.BatchNorm2d, eps=1e-3, momentum=0.01)
        self.a = Block(3, norm_layer=norm_layer)
        self.b = Block(3)
        make_linear = partial(nn.Linear, bias=False)
        self.fc = make_linear(3, 2)
        self.act = partial(F.leaky_relu, negative_slope=0.2)
        self.combine = partial(scaled_add, scale=0.5)
        self.eps = self.a.bn.eps

    def forward(self, x):
        h = self.b(self.a(x))
        pooled = self.act(h.mean((2, 3)))
        out = self.combine(self.fc(pooled), self.fc(pooled), scale=2.0)
        double = partial(torch.mul, other=2.0)
        return self.combine(out, double(out)), self.eps
