import torch


def f(x):
    x.requires_grad_()
    x += 1
    return x.sum()
