import torch
import torch.nn.functional as F


def f(x):
    h = x * 2
    return F.relu(h, inplace=bool(h.sum() > 0))
