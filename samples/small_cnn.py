# A small CNN: a convolution stem with ReLU and max pooling, a residual block of two
# 3x3 convolutions (x + conv2(relu(conv1(x)))), global average pooling and a linear
# head. Parameters are named as in the state_dict (stem.weight, block.conv2.weight, ...;
# conv2 has no bias). No batch norm: d2s does not implement nn.BatchNorm2d yet.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        return F.relu(x + self.conv2(h))


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.block = Block(4)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(4, 3)

    def forward(self, x):
        h = self.pool(torch.relu(self.stem(x)))
        h = self.block(h)
        return self.head(torch.flatten(self.gap(h), 1))
