import torch
import torch.nn as nn


class Scale:
    def __init__(self, k):
        self.k = k


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        s = Scale(2.0)
        self.f = lambda x: x * s.k

    def forward(self, x):
        return self.f(x)
