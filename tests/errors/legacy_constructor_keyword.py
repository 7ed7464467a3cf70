import torch


def f(x):
    w = torch.FloatTensor(2, 3, dtype=torch.float32)
    return x + w.sum()
