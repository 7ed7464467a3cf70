import torch


def f(x):
    if x.sum() > 100.0:
        return x
    return -x
