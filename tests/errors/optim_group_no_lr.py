import torch


def f(x):
    w = torch.zeros(3, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([{"params": [w], "lr": 0.1}, {"params": [b]}])
    return x
