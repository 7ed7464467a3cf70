# Pieces of unbind taken while the base needs no grad; an in-place add makes the base
# require grad: reading a piece in grad mode is PyTorch's "created in no_grad mode" error.
import torch


def unbind_base_gains_grad(x):
    y = torch.zeros(3, 2)
    rows = y.unbind(0)
    y += x
    return rows[1].sum()
