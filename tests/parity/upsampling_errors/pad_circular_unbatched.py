# Circular padding of the last two dims of a 3-d input: PyTorch wants a batch dim.
import torch.nn.functional as F


def f(x):
    return F.pad(x[0], (1, 1, 1, 1), mode="circular")
