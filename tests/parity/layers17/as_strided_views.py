# torch.as_strided / x.as_strided as a view of the storage: overlapping sliding windows
# (their gradients add), a storage offset, offset None on a root, an as_strided of a
# transposed view (it reads the base's storage, not the view's order), and writes
# through an as_strided view that reach the base and its other views.
import torch


def as_strided_views(x, m):
    w = torch.as_strided(x, (3, 4), (2, 1))
    o = x.as_strided([2, 2, 3], [4, 1, 2], 1)
    mt = m.t()
    s = mt.as_strided((2, 3), (1, 2))
    y = m * 1.0
    yt = y.t()
    v = y.as_strided((2, 2), (3, 1), 2)
    v.mul_(10.0)
    y.as_strided((3,), (4,)).add_(1.0)
    total = (w * w).sum() + o.tanh().sum() + (s * 3).sum() + (y * y).sum() + yt.sum()
    return total, w, o, s, y, v, yt
