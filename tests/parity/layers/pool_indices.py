# F.max_pool2d(return_indices=True) as published unpooling code calls it (PyTorch's
# boolean dispatch to max_pool2d_with_indices), with an explicit stride=None, beside
# the plain form.
import torch
import torch.nn.functional as F


def pool_indices(x):
    p, i = F.max_pool2d(x, 2, return_indices=True)
    q, j = F.max_pool2d(x, (3, 2), None, 1, 1, True, True)
    r = F.max_pool2d(x, 2, stride=None, return_indices=False)
    return (p * p).sum() + q.tanh().sum() + r.sum(), p, i, q, j, r
