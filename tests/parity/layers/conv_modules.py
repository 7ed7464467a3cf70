# nn.Conv2d and nn.Conv1d with PyTorch's parameter names (stem.weight, dw.weight, ...):
# a strided non-square kernel with padding, a depthwise 'same' convolution without
# bias, a 1x1 convolution, and a grouped dilated Conv1d on a second input.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 6, (3, 5), stride=2, padding=(2, 1))
        self.dw = nn.Conv2d(6, 6, 3, padding="same", groups=6, bias=False)
        self.pw = nn.Conv2d(6, 4, 1)
        self.seq = nn.Conv1d(4, 6, kernel_size=3, dilation=2, groups=2, padding=1)

    def forward(self, x, s):
        h = torch.relu(self.stem(x))
        h = self.pw(self.dw(h) + h)
        t = self.seq(s)
        return (h * h).sum() + t.tanh().sum(), h, t
