import torch


def transpose_mul(x, y):
    h = x + y
    h.transpose(0, 1).mul_(2)
    return (h * h * y).sum(), h
