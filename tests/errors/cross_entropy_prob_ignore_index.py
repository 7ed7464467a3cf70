import torch
import torch.nn.functional as F


def f(x):
    return F.cross_entropy(x, x.softmax(1), ignore_index=0)
