import torch


def f(x):
    x.requires_grad_()
    y = x * 2
    y.backward(torch.ones(3))
    return x.grad
