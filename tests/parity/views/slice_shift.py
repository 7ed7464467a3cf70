import torch


def slice_shift(x, y):
    h = x * 1
    h[:, 1:] = y[:, :-1]
    return (h * h * x).sum(), h
