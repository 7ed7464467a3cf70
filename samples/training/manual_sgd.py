# Gradient descent written by hand: the loss's gradients, then `p -= lr * p.grad` on
# each parameter under torch.no_grad() (an in-place update of a leaf, allowed there),
# and the gradients zeroed by model.zero_grad().
import torch
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 8)
        self.out = nn.Linear(8, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.hidden(x)))


torch.manual_seed(0)
x = torch.randn(16, 3)
y = x[:, 0:1] * 2.0 - x[:, 1:2] + 0.5

model = Regressor()
lr = 0.05
for step in range(40):
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    model.zero_grad()
    if step % 10 == 9:
        print(f"step {step + 1:2d}  loss {loss.item():.6f}")
