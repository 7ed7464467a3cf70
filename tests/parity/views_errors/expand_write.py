import torch


# Writing into an expanded view whose elements overlap is PyTorch's error.
def expand_write(x):
    h = (x * 2)[:1].expand(3, 3)
    h.add_(1)
    return h
