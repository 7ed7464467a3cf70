import torch
import torch.nn as nn


# repr() of the modules built with inplace=True, as PyTorch prints them.
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.LeakyReLU(0.2, inplace=True),
            nn.ReLU6(inplace=True),
            nn.ELU(alpha=0.7, inplace=True),
            nn.SELU(True),
            nn.SiLU(inplace=True),
            nn.Hardtanh(-0.5, 0.8, inplace=True),
            nn.Dropout(0.1, inplace=True),
            nn.Dropout2d(inplace=True),
            nn.ReLU(inplace=True),
            nn.ELU(),
            nn.SiLU(),
        )

    def forward(self, x):
        print(self.body)
        self.body.eval()
        return self.body(x * 1)
