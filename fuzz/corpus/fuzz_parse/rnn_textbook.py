# The textbook's RNN script exactly as printed (plus the `import torch` it leaves out).
# Its `W_h` is a typo for `w_h`: d2s must stop at it with a NameError and a suggestion.
import torch

w_h = torch.randn(20, 20, requires_grad=True)
w_x = torch.randn(20, 10, requires_grad=True)
x = torch.rand(1, 10)
prev_h = torch.randn(1, 20)

h2h = torch.mm(W_h, prev_h.t())
if h2h > w_x:
    i2h = torch.mm(w_x, x.t())
    h2h = h2h + i2h
next_h = h2h.tanh()

loss = next_h.sum()
loss.backward()
