# gather, scatter with a src tensor and with a value (one-hot), scatter_add with a
# repeated index (repeats add), the in-place forms, negative dims, and an index smaller
# than self along the other dims.
import torch


def gather_scatter(x, idx, src):
    g = torch.gather(x, 1, idx)
    g2 = x.gather(-1, idx)
    s = torch.scatter(x, 1, idx, src)
    onehot = torch.zeros(3, 5).scatter_(1, idx[:, :1], 1.0)
    sa = x.scatter_add(1, idx, src)
    acc = torch.zeros(3, 5)
    acc.scatter_add_(1, idx, src * 2)
    sv = x.scatter(0, idx[:2] % 3, -1.0)
    y = x * 1
    y.scatter_(1, idx, src)
    total = (g * g2).sum() + (s * s).sum() + (sa * x).sum() + acc.sum() + sv.sum() + y.sum()
    return total, g, g2, s, onehot, sa, acc, sv, y
