# Newton's square root iterated until it converges: the trip count of the `while` depends
# on the data, so a trace unrolls exactly as many steps as the example needed and bakes
# `steps`; the counter bound keeps the loop finite on any input.
import torch
from torch import Tensor


def while_converge(a: Tensor):
    y = torch.ones_like(a)
    steps = 0
    while (y * y - a).abs().max() > 1e-4 and steps < 20:
        y = 0.5 * (y + a / y)
        steps += 1
    return y, steps
