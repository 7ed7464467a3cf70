import torch


def f(x):
    a = torch.zeros(100, 100)
    b = torch.ones(100, 100)
    return a + b + x.sum()
