import torch
import torch.nn.functional as F


def f(x):
    return F.dropout2d(x, 0.5, training=True, inplace=True)
