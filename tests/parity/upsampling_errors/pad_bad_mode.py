# F.pad with a mode PyTorch does not know.
import torch.nn.functional as F


def f(x):
    return F.pad(x, (1, 1), mode="wrap")
