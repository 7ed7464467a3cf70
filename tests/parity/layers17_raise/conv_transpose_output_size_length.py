# ConvTranspose2d's output_size with neither 2 nor 4 items: PyTorch's ValueError.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(2, 3, 3, stride=2)

    def forward(self, x):
        return self.up(x, output_size=[3, 9, 9])
