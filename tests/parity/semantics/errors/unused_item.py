# .item() of a two-element tensor raises in PyTorch though nothing reads it; the
# parse route must not drop it as dead code.
import torch


def unused_item(x):
    y = x * 2
    y.item()
    return y
