# torch.iinfo() without a dtype: PyTorch's TypeError in every route (finfo() has a
# default, the default dtype's; iinfo has none).
import torch


def iinfo_missing(x):
    return x + torch.iinfo().max
