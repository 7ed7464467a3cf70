import torch


def unbind_view(x):
    h = x * 2
    rows = h.unbind(0)
    rows[1].zero_()
    return h
