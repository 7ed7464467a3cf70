import torch


def f(x):
    return torch.frobnicate(x)
