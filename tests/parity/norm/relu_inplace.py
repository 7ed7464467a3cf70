# nn.ReLU(inplace=True) overwrites its input, as PyTorch's does: the input read after
# the call holds the rectified values (in every route, and its gradient through the
# write); inplace=False leaves it.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU(inplace=True)
        self.plain = nn.ReLU()

    def forward(self, x):
        h = x * 2 - 0.5
        y = self.act(h)
        g = x + 1
        z = self.plain(g)
        return (y * h).sum() + (z * g).sum(), h, g
