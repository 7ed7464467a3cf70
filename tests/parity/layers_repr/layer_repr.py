# repr() of the conv, pool, Flatten and activation modules as PyTorch prints them (extra_repr),
# also inside a Sequential. Eager mode only: the parse route, like torch.jit.script,
# cannot print a module.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = nn.ModuleList([
            nn.Conv2d(3, 8, 3),
            nn.Conv2d(3, 8, (3, 5), stride=2, padding=(2, 1), bias=False, dilation=2),
            nn.Conv2d(4, 4, 3, padding="same", groups=4),
            nn.Conv1d(2, 4, 3, stride=2, padding=1),
            nn.MaxPool2d(2),
            nn.MaxPool2d((3, 2), stride=1, padding=1, ceil_mode=True),
            nn.MaxPool1d(3),
            nn.AvgPool2d(3, 2, 1),
            nn.AvgPool1d(4),
            nn.AdaptiveAvgPool2d((1, 1)),
            nn.AdaptiveAvgPool1d(6),
            nn.AdaptiveMaxPool2d(2),
            nn.Flatten(),
            nn.Sequential(nn.Conv2d(1, 2, 3), nn.MaxPool2d(2)),
            nn.LeakyReLU(), nn.LeakyReLU(0.2), nn.SiLU(), nn.Softplus(), nn.Softplus(2, 5.0),
            nn.Softmax(dim=1), nn.Softmax(), nn.LogSoftmax(-1), nn.Hardtanh(), nn.Hardtanh(-2, 3),
            nn.ReLU6(), nn.ELU(), nn.ELU(0.5), nn.SELU(),
        ])

    def forward(self, x):
        print(self.mods)
        return x * 2
