# Pieces of split and chunk read after in-place writes into their base (mul_, an index
# write): every piece sees the writes, as the other views of the base do; the base needs
# no grad, so PyTorch allows reading them with grad mode on (x gets the gradient).
import torch


def split_write_base(x):
    y = torch.ones(4, 4)
    a, b = y.split(2, dim=0)
    c, d = torch.chunk(y, 2, dim=1)
    y.mul_(3.0)
    y[0, 0] = 7.0
    return (a * b).sum() * x.sum() + (c * d * x[:, :2]).sum(), a, b, c, d
