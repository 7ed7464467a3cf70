# A module whose __init__ freezes it: PyTorch runs its eval branch (d2s used to force
# training mode over what __init__ set). Attributes __init__ assigns are its state.
import torch
import torch.nn as nn


class Frozen(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.training = False
        self.scale = 3.0

    def forward(self, x):
        h = self.lin(x)
        if self.training:
            return h * 0.0
        return h * self.scale
