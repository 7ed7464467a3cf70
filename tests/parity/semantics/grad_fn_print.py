# Printing a tensor that requires grad shows the node that made it, and
# `requires_grad=True` only for a leaf, as PyTorch does.
import torch
import torch.nn.functional as F


def grad_fn_print(x):
    w = torch.ones(2, 3, requires_grad=True)
    print(w)
    h = torch.mm(w, x)
    print(h)
    print(h.tanh())
    print(h + 1, h * 2, h - 1, 1 - h, h / 2)
    print(F.relu(h).sum(), h.sum(0), h.mean(), h.t(), h[0])
    print(torch.matmul(w[0], x), F.linear(x.t(), w, w[:, 0]))
    return h.sum()
