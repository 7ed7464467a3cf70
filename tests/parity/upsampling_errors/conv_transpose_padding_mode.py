# ConvTranspose2d pads with zeros only: PyTorch's ValueError at construction.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(2, 4, 3, padding=1, padding_mode="reflect")

    def forward(self, x):
        return self.up(x)
