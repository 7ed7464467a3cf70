import torch


# Views of h taken before a write through another view see the write (values and
# gradients), as they share h's storage in PyTorch.
def other_views(x, y):
    h = x * 2
    col = h[:, 0]
    ht = h.t()
    h[1].mul_(y)
    return (col * col).sum() + (ht * x.t()).sum(), col, ht
