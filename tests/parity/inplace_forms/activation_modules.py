import torch
import torch.nn as nn


# Activation modules with inplace=True between linear layers: each overwrites the
# linear layer's output, so `h` below reads the activated value, as in PyTorch.
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6)
        self.fc2 = nn.Linear(6, 6)
        self.fc3 = nn.Linear(6, 3)
        self.acts = nn.ModuleList([
            nn.LeakyReLU(0.2, inplace=True),
            nn.ReLU6(inplace=True),
            nn.ELU(alpha=0.7, inplace=True),
            nn.SELU(inplace=True),
            nn.SiLU(inplace=True),
            nn.Hardtanh(-0.5, 0.8, inplace=True),
        ])
        self.seq = nn.Sequential(nn.Linear(6, 6), nn.LeakyReLU(negative_slope=0.05, inplace=True),
                                 nn.Linear(6, 6), nn.Hardtanh(inplace=True))

    def forward(self, x):
        h = self.fc1(x) * 3
        total = h.sum() * 0
        for act in self.acts:
            y = act(h)
            total = total + (y - h).abs().sum()  # zero: y is h itself
            h = self.fc2(h)
        out = self.fc3(self.seq(h))
        return out, total
