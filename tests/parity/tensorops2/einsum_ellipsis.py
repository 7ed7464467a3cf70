# torch.einsum with "...": batch dims broadcast aligned on the right ("...ij,...jk->...ik"
# with batch shapes (2, 3) and (3,), a size-1 batch dim), "..." in the middle of a term
# ("b...d,d->b..."), "..." summed when the output has none, the implicit output (the
# "..." dims first), "..." covering no dims, and a transpose of the last two dims.
import torch


def einsum_ellipsis(a, b, c, v):
    mm = torch.einsum("...ij,...jk->...ik", a, b)
    bc = torch.einsum("...ij,...jk->...ik", c, b)
    mid = torch.einsum("b...d,d->b...", a, v)
    summed = torch.einsum("...ij->j", a)
    implicit = torch.einsum("...ij,...jk", a, b)
    none = torch.einsum("...i,...i->...", v, v)
    tr = torch.einsum("...ij->...ji", a)
    outer = torch.einsum("i,...->...i", v, b[0])
    total = mm.sum() + (bc * bc).sum() + mid.tanh().sum() + summed.sum() + implicit.sum()
    total = total + none + (tr * tr).sum() + outer.sum()
    return total, mm, bc, mid, summed, implicit, none, tr, outer
