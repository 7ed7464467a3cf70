# `**kwargs` in forward's helpers, as published blocks pass options through: keywords
# gathered by a helper's `**kwargs` (values of mixed types) and read with [], get, in,
# len and a loop over items(); spread on to another call with `**kwargs`; `if kwargs:`;
# dict(**kwargs) of one value type as a dict; a module method taking `**kwargs`.
import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled(x, scale=1.0, shift=0.0):
    return x * scale + shift


def apply_opts(x, **kwargs):
    if kwargs:
        x = scaled(x, **kwargs)
    return x


def activate(x, kind, **options):
    slope = options.get("negative_slope", 0.01)
    if kind == "leaky":
        return F.leaky_relu(x, slope)
    if "clip" in options:
        x = x.clamp(-options["clip"], options["clip"])
    return x + len(options)


def describe(**named):
    total = 0.0
    keys = []
    for key, value in named.items():
        keys.append(key)
        total += value.sum().item()
    return keys, total


def stacked(**tensors):
    d = dict(**tensors)
    return d["a"] + d["b"], len(d)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def branch(self, x, **kw):
        return self.fc(apply_opts(x, **kw))

    def forward(self, x, y):
        a = self.branch(x, scale=2.0, shift=y)
        b = self.branch(x)
        c = activate(a, "leaky", negative_slope=0.2)
        e = activate(b, "clip", clip=0.5, extra=True)
        keys, total = describe(first=a, second=b)
        print(keys, round(total, 3))
        s, n = stacked(a=a, b=b)
        return c + e + s * n
