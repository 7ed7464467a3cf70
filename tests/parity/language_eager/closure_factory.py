# A closure factory (a nested function returned from its defining call, reading that
# call's variables later), sorted(key=lambda ...), lambdas in attributes and as
# arguments: eager and trace (the parse route cannot return a function from an inlined call).
import torch
import torch.nn as nn
import torch.nn.functional as F

SCALE = 3.0
EPS = 1e-5


def apply_twice(fn, x):
    return fn(fn(x))


def normalize(x, eps=EPS, scale=SCALE):
    return scale * x / (x.abs().sum() + eps)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.act = lambda t: torch.relu(t) + 1
        self.loss_func = F.mse_loss
        self.pick = max

    def forward(self, x):
        offset = 0.5

        def shift(t):
            return t + offset

        def make_scaler(k):
            def scaler(t):
                return t * k

            return scaler

        h = self.act(self.fc(x))
        offset = 2.0  # read when shift runs, as Python closures do
        h = shift(h)
        h = apply_twice(lambda t: t * 0.5, h)
        double = make_scaler(2.0)
        key_first = sorted([3, 1, 2], key=lambda v: -v)
        loss = self.loss_func(h, torch.zeros_like(h))
        print(key_first, self.pick(1, 5), (lambda a, b=2: a * b)(4))
        return double(normalize(h)), loss
