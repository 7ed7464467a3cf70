# A shape mismatch whose result nobody reads still raises, as in PyTorch.
import torch


def unused_mismatch(x, y):
    z = x + y
    return x * 2
