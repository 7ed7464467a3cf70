# torch.finfo of a number written out: PyTorch's TypeError in every route (the parse
# route keeps dtypes as int codes, as TorchScript does, and still tells 3 from a dtype).
import torch


def finfo_int(x):
    return x * torch.finfo(3).eps
