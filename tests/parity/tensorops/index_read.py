# Advanced indexing reads (aten::index): long tensors, lists (negative entries too),
# bool masks, x[range(n), t], and tensor indices mixed with ints, slices, steps, None
# and `...` (before the tensor index: the parse route, as TorchScript, needs the rank
# for one after it; tensorops_eager/ has those); adjacent index tensors keep their place, separated ones go first.
import torch


def index_read(x, idx, mask, t):
    a = x[idx]
    b = x[:, [-1], :]
    c = x[mask]
    d = x[range(2), t]
    e = x[:, idx, 1:3]
    f = x[1, :, [0, -1]]
    g = x[idx[:2], :, t]
    h = x[::2, [2, 0], ::2]
    i = x[None, [1, 0]]
    j = x[[0, 1], ..., 1:]
    k = x[[1], ...]
    total = a.sum() + (b * b).sum() + c.tanh().sum() + (d * d).sum() + e.sum() + f.exp().sum()
    total = total + (g * 2).sum() + h.sum() + i.sigmoid().sum() + (j * j).sum() + k.sum()
    return total, a, b, c, d, e, f, g, h, i, j, k
