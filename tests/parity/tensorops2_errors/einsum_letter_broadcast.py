# A letter of different sizes in two operands.
import torch


def einsum_letter_broadcast(a, b):
    return torch.einsum("ij,jk->ik", a, b)
