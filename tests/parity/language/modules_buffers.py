# register_buffer (persistent or not) and register_parameter (also None): buffers are
# in the state_dict as PyTorch writes it (the non-persistent one is not), so the
# parity suite loads the running mean from the weights file in every route.
import torch
import torch.nn as nn


class Normalizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.arange(4.0) * 0.5)
        self.register_buffer("scale", torch.full((4,), 2.0), persistent=False)
        self.register_parameter("gain", nn.Parameter(torch.ones(4) * 1.5))
        self.register_parameter("shift", None)
        self.fixed = nn.Parameter(torch.tensor([0.5, -0.5, 1.0, 2.0]), requires_grad=False)

    def forward(self, x):
        y = (x - self.mean) * self.scale * self.gain
        return y + self.fixed


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = Normalizer()
        self.lin = nn.Linear(4, 3)
        self.register_buffer("steps", torch.tensor(7))

    def forward(self, x):
        return self.lin(self.norm(x)) * self.steps, self.norm.shift is None
