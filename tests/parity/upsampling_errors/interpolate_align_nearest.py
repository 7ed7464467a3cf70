# align_corners with mode 'nearest': PyTorch's ValueError.
import torch.nn.functional as F


def f(x):
    return F.interpolate(x, size=5, align_corners=True)
