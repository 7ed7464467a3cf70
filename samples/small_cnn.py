# A small CNN as deployed for inference: a convolution stem with batch norm, ReLU and
# max pooling, a residual block (x + bn2(conv2(relu(bn1(conv1(x)))))), global average
# pooling and a linear head. Parameters and buffers are named as in the state_dict
# (stem_bn.running_mean, block.conv2.weight, ...; the convolutions before a batch norm
# have no bias). The model is in eval mode, as an exported or served model is: batch
# norm normalises with its running statistics (set here as training would leave them).
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(h)))


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 4, kernel_size=3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2)
        self.block = Block(4)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(4, 3)
        for i, bn in enumerate([self.stem_bn, self.block.bn1, self.block.bn2]):
            bn.running_mean = torch.linspace(-0.2, 0.3, 4) * (i + 1)
            bn.running_var = torch.linspace(0.5, 1.5, 4) + i
        self.eval()

    def forward(self, x):
        h = self.pool(torch.relu(self.stem_bn(self.stem(x))))
        h = self.block(h)
        return self.head(torch.flatten(self.gap(h), 1))
