import torch.nn.functional as F


def f(x):
    return F.max_pool2d(x.view(1, 1, 2, 3), 3)
