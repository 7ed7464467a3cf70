# torch.nonzero(x, as_tuple=True), x.nonzero(as_tuple=True) and one-argument
# torch.where(cond): one 1-D long tensor of coordinates per dim, usable as an index
# (x[idx_tuple] reads, and writes, the nonzero elements); as_tuple=False is plain nonzero.
import torch


def nonzero_tuple(x, m):
    rows, cols = torch.nonzero(x > 0, as_tuple=True)
    idx = (m != 0).nonzero(as_tuple=True)
    w = torch.where(x < 0)
    flat = torch.nonzero(m[0], as_tuple=True)
    plain = x.nonzero(as_tuple=False)
    picked = x[torch.where(x > 0.5)]
    y = x.clone()
    y[idx] = 0.0
    total = (picked * picked).sum() + (y * x).sum() + x[rows, cols].sum()
    return total, rows, cols, idx[0], idx[1], w[0], w[1], flat[0], plain, picked, y, len(idx)
