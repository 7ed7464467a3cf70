# A tensor index after `...` (x[..., idx], x[..., mask]): eager and trace run it; the
# parse route refuses it as TorchScript does ("Ellipses followed by tensor indexing is
# currently not supported"), since the index's dim depends on the rank.
import torch


def index_after_ellipsis(x, idx, m):
    a = x[..., [3, 1]]
    b = x[..., idx]
    c = x[..., m]
    x[..., idx] = 0.5
    return a, b, c, x * 2
