import torch


def f(x):
    return torch.zeros(100, 100) + x.sum()
