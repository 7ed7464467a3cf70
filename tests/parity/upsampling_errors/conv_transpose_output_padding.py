# output_padding as large as the stride: PyTorch's RuntimeError at the forward.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=2)

    def forward(self, x):
        return self.up(x)
