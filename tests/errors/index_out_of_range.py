import torch


def f(x):
    rows = torch.tensor([0, 3])
    return x[rows]
