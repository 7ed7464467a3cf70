# F.conv_transpose2d / F.conv_transpose1d with their arguments as published code writes
# them: a non-square kernel with stride larger than the kernel, output_padding,
# padding larger than half the kernel, dilation, groups, tuple and int arguments, no
# bias, and torch.conv_transpose2d. Weights are inputs, so --grad checks their
# gradients too.
import torch
import torch.nn.functional as F


def convs(x, w, wg, b, s, w1):
    y1 = F.conv_transpose2d(x, w, b[:3], stride=(3, 4), padding=(1, 0), output_padding=(2, 1))
    y2 = F.conv_transpose2d(x, w, None, stride=2, padding=2, dilation=(2, 1))
    y3 = F.conv_transpose2d(x, wg, b[:4], 1, 0, 0, 2)
    y4 = torch.conv_transpose2d(x, w, b[1:], 1, (3, 1), 0, 1, 2)
    y5 = F.conv_transpose1d(s, w1, None, stride=3, padding=1, output_padding=1)
    y6 = F.conv_transpose1d(s, w1, b[:2], 2, 2, 1, 1, 2)
    total = (y1 * y1).sum() + y2.tanh().sum() + y3.sigmoid().sum() + (y4 * y4).sum()
    return total + y5.sum() + (y6 * y6).sum(), y1, y2, y3, y4, y5, y6
