# The F. pools: max_pool2d with tuple kernel, stride, padding, dilation and ceil_mode;
# max_pool1d; avg_pool2d with ceil_mode, count_include_pad=False and divisor_override;
# avg_pool1d; adaptive pools to sizes that do not divide the input, and larger than it.
import torch
import torch.nn.functional as F


def pools(x, s):
    a = F.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(1, 2), ceil_mode=True)
    b = F.max_pool1d(s, 3, 2, 1)
    c = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
    d = F.avg_pool2d(x, (2, 3), divisor_override=4)
    e = F.avg_pool1d(s, kernel_size=4, stride=3, padding=2)
    f = F.adaptive_avg_pool2d(x, (3, 4))
    g = F.adaptive_avg_pool2d(x, (9, 2))
    h = F.adaptive_avg_pool1d(s, 4)
    i = F.max_pool2d(x, 2)
    total = (a * a).sum() + b.tanh().sum() + (c * c).sum() + d.sum() + (e * e).sum()
    total = total + f.tanh().sum() + (g * g).sum() + h.sigmoid().sum() + (i * i).sum()
    return total, a, b, c, d, e, f, g, h, i
