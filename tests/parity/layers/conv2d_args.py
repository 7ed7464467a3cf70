# F.conv2d with its arguments as published code writes them: tuple and int strides,
# padding larger than the kernel's half, dilation, 'same' (with an even dilated kernel,
# padded more at the end) and 'valid', a depthwise convolution (groups = channels),
# no bias, and torch.conv2d. Weights are inputs, so --grad checks their gradients too.
import torch
import torch.nn.functional as F


def convs(x, w, wd, b):
    y1 = F.conv2d(x, w, b, stride=(2, 1), padding=(3, 1), dilation=(1, 2))
    y2 = F.conv2d(x, w, None, padding="same", dilation=2)
    y3 = F.conv2d(x, wd, groups=3)
    y4 = torch.conv2d(x, w, b, 2, "valid")
    y5 = F.conv2d(x, wd, b[:3], 1, 1, 1, 3)
    total = y1.tanh().sum() + (y2 * y2).sum() + (y3 * y3).sum() + y4.sigmoid().sum() + y5.sum()
    return total, y1, y2, y3, y4, y5
