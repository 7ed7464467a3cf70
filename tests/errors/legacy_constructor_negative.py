import torch


def f(x):
    w = torch.FloatTensor(2, -3)
    return x + w.sum()
