# F.conv1d: grouped with stride, dilation and padding larger than the kernel's half;
# 'same' with an even kernel (one more pad at the end); an unbatched input; 'valid'.
import torch
import torch.nn.functional as F


def convs(x, w, w2, b):
    y1 = F.conv1d(x, w, b, stride=2, padding=4, dilation=3, groups=2)
    y2 = F.conv1d(x, w2, None, padding="same")
    y3 = F.conv1d(x[0], w2, b[:5], padding="valid", stride=(3,))
    y4 = torch.conv1d(x, w2, dilation=2)
    total = y1.tanh().sum() + (y2 * y2).sum() + y3.sigmoid().sum() + (y4 * y4).sum()
    return total, y1, y2, y3, y4
