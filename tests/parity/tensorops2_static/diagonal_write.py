# Writes through diagonal views (main and off diagonals, a 3-D tensor's), then reads of
# the base and of a diagonal taken before the writes: d2s grad's static graph writes
# them back with diagonal_scatter and takes the diagonal again from the new base.
import torch


def diagonal_write(m, x):
    y = m * 1.0
    before = y.diagonal(-1)
    y.diagonal().mul_(3.0)
    y.diagonal(1).add_(x[0, 0])
    z = x * 2.0
    z.diagonal(0, 1, 2).copy_(m[:2, :3])
    return (y * y).sum() + (before * m[1:, 0]).sum() + (z * z).sum(), y, before, z
