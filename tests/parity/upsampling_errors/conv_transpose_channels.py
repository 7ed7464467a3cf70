# A weight for 3 input channels on a 2-channel input.
import torch
import torch.nn.functional as F


def f(x):
    w = torch.ones(3, 2, 2, 2)
    return F.conv_transpose2d(x, w, stride=2)
