# The textbook's RNN cell run to the end of its script: `loss.backward()` included.
# Gradients flow through whichever branch the input took: eagerly, and on the traced
# or parsed graph with `d2s run --grad` (the trace holds the forward computation, as
# torch.jit.trace records it; the parsed graph keeps backward() as aten::backward).
# The loss comes first so that `--grad` differentiates it.
import torch
from torch import Tensor


def rnn_cell_backward(x: Tensor, prev_h: Tensor, w_h: Tensor, w_x: Tensor):
    h2h = torch.mm(w_h, prev_h.t())
    if h2h.mean() > w_x.mean():
        i2h = torch.mm(w_x, x.t())
        h2h = h2h + i2h
    next_h = h2h.tanh()
    loss = next_h.sum()
    loss.backward()
    return loss, next_h
