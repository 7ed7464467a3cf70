# An int input controls the trip count and a float input a coefficient: tracing bakes
# both (n steps unrolled, alpha folded in as a constant), so a trace made with n=2 computes
# two steps whatever n it is given; the parsed graph takes n and alpha as graph inputs.
import torch
from torch import Tensor


def scalar_input(x: Tensor, w: Tensor, n: int, alpha: float = 0.5) -> Tensor:
    h = x
    for step in range(n):
        h = alpha * h + (1 - alpha) * torch.tanh(h @ w)
    return h
