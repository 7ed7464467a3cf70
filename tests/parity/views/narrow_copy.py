import torch


# narrow is a view: copy_ into it writes h, and z's gradient comes through it.
def narrow_copy(x, z):
    h = x * x
    h.narrow(1, 1, 2).copy_(z * 3)
    return (h * x).sum(), h
