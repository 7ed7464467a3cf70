# The textbook's RNN script made to run (samples/errors/rnn_textbook_fixed_name.py has
# the [20, 1] > [20, 10] comparison PyTorch cannot take the truth of; here the `if`
# compares two sums), with deterministic weights so that every route and PyTorch see
# the same numbers. A script's outputs are the names it assigns that hold a tensor or
# a number at the end, in source order (docs/language.md, "Scripts").
import torch

a = torch.arange(400.0, requires_grad=True)
w_h = torch.sin(a).reshape(20, 20) * 0.1
w_x = torch.cos(a[:200]).reshape(20, 10) * 0.1
x = torch.arange(10.0).reshape(1, 10) / 10.0
prev_h = torch.sin(torch.arange(20.0) * 0.5).reshape(1, 20)

h2h = torch.mm(w_h, prev_h.t())
if h2h.sum() < w_x.sum():
    i2h = torch.mm(w_x, x.t())
    h2h = h2h + i2h
next_h = h2h.tanh()

loss = next_h.sum()
loss.backward()
steps = 1
