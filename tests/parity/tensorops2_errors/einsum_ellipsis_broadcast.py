# "..." dims that do not broadcast: PyTorch's message names the operand's dim.
import torch


def einsum_ellipsis_broadcast(a, b):
    return torch.einsum("...ij,...jk->...ik", a, b)
