# baddbmm (beta, alpha; a broadcast self), fmod on floats (negative operands: the
# dividend's sign) and ints, nonzero, and new_zeros / new_ones / new_full / new_empty
# (self's dtype, or dtype=; varargs sizes).
import torch


def misc_ops(x, b1, b2, n):
    a = torch.baddbmm(x, b1, b2)
    b = x.baddbmm(b1, b2, beta=0.5, alpha=2.0)
    f = torch.fmod(b1 * 3, 1.25)
    g = b1.fmod(b2.transpose(1, 2) + 2)
    fi = torch.fmod(n, 3)
    fi2 = n.fmod(-4)
    nz = torch.nonzero(n > 0)
    nz2 = (x > 0).nonzero()
    z = x.new_zeros(2, 3)
    o = n.new_ones((4,))
    full = x.new_full([2], 1.5)
    e = x.new_empty(0, 2)
    zi = x.new_zeros(3, dtype=torch.int64)
    total = (a * b).sum() + f.sum() + (g * g).sum() + z.sum() + full.sum()
    return total, a, b, f, g, fi, fi2, nz, nz2, z, o, full, e, zi
