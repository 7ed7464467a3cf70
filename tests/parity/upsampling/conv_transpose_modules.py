# nn.ConvTranspose2d and nn.ConvTranspose1d with PyTorch's parameter names and shapes
# ([in, out / groups, k...]): a strided non-square kernel with output_padding, a
# grouped dilated one without bias, and a 1-d one on a second input.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1)
        self.grouped = nn.ConvTranspose2d(6, 4, 3, groups=2, dilation=(1, 2), bias=False)
        self.seq = nn.ConvTranspose1d(3, 4, kernel_size=5, stride=3, padding=3, output_padding=2)

    def forward(self, x, s):
        h = torch.relu(self.up(x))
        h = self.grouped(h)
        t = self.seq(s)
        return (h * h).sum() + t.tanh().sum(), h, t
