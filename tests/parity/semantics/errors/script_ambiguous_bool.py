# A script (top-level statements): `h > w` has 6 elements, so the `if` cannot take
# its truth; PyTorch raises there, though nothing reads what the script computes.
import torch

w = torch.ones(2, 3, requires_grad=True)
h = torch.zeros(2, 1)
if h > w:
    h = h + 1
loss = h.tanh().sum()
loss.backward()
