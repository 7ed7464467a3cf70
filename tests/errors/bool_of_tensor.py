import torch


def f(x):
    if x > 0:
        return x
    return -x
