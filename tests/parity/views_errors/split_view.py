import torch


# The outputs of split (chunk, unbind) may not be written in place when grad flows.
def split_view(x):
    h = x * 2
    a, b = h.split(1)
    b.mul_(3)
    return h
