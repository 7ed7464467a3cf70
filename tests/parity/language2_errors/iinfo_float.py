# torch.iinfo of a floating dtype: PyTorch's TypeError, with its hint, in every route.
import torch


def iinfo_float(x):
    return x + torch.iinfo(torch.float32).bits
