# Reflect padding as large as the padded dim (3): PyTorch requires less.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pad = nn.ReflectionPad2d((1, 1, 3, 0))

    def forward(self, x):
        return self.pad(x) * 2
