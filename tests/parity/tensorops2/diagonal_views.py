# torch.diagonal / x.diagonal(offset, dim1, dim2) as a view (writes through it reach the
# base, and a write into the base reaches it), diagonal offsets both ways on a
# non-square matrix, dims of a 3-D tensor, torch.diag_embed (offsets, dims).
import torch


def diagonal_views(x, m, v):
    d0 = torch.diagonal(m)
    d1 = m.diagonal(1)
    dn = m.diagonal(-2)
    d3 = x.diagonal(0, 0, 2)
    d4 = torch.diagonal(x, offset=-1, dim1=-1, dim2=1)
    y = m * 1.0
    yd = y.diagonal()
    yd.mul_(10.0)
    y.diagonal(1).zero_()
    y[0, 0] = 2.0
    e = torch.diag_embed(v)
    e1 = torch.diag_embed(m, offset=1)
    e2 = torch.diag_embed(m, -1, 0, 2)
    total = (d0 * d0).sum() + d1.sum() + dn.sum() + d3.tanh().sum() + (d4 * 2).sum()
    total = total + (y * y).sum() + (yd * 3).sum() + (e * e).sum() + e1.sum() + (e2 * e2).sum()
    return total, d0, d1, dn, d3, d4, y, yd, e, e1, e2
