import torch
import torch.nn.functional as F


def f(x):
    x.requires_grad_()
    h = x * 2
    F.elu_(h, -0.5)
    h.sum().backward()
    return x.grad
