import torch


def f(x):
    x.requires_grad_()
    y = x.sigmoid()
    y += 1
    y.sum().backward()
    return x.grad
