# The textbook's RNN cell (AISystem, "dynamic and static graph conversion") as a function.
# The `if` reads tensor values, so a trace records only the branch the example input
# took: traced on one input, the graph always (or never) adds i2h on every other input.
import torch
from torch import Tensor


def rnn_cell(x: Tensor, prev_h: Tensor, w_h: Tensor, w_x: Tensor):
    h2h = torch.mm(w_h, prev_h.t())
    if h2h.mean() > w_x.mean():
        i2h = torch.mm(w_x, x.t())
        h2h = h2h + i2h
    next_h = h2h.tanh()
    loss = next_h.sum()
    return next_h, loss
