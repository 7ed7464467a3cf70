# The textbook's RNN script with only the `W_h` typo fixed. `h2h > w_x` compares a [20, 1]
# with a [20, 10] tensor: the result has 200 elements, so the `if` cannot take its truth.
import torch

w_h = torch.randn(20, 20, requires_grad=True)
w_x = torch.randn(20, 10, requires_grad=True)
x = torch.rand(1, 10)
prev_h = torch.randn(1, 20)

h2h = torch.mm(w_h, prev_h.t())
if h2h > w_x:
    i2h = torch.mm(w_x, x.t())
    h2h = h2h + i2h
next_h = h2h.tanh()

loss = next_h.sum()
loss.backward()
