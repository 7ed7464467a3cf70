# *args and **kwargs in definitions and calls, keyword-only parameters (after * and
# after *args), and **d spread into a call.
import torch
import torch.nn as nn


def combine(*tensors, weight=1.0, **options):
    out = tensors[0]
    for t in tensors[1:]:
        out = out + t
    if options.get("square", False):
        out = out * out
    return out * weight, len(tensors), sorted(options.keys())


def affine(x, *, scale, shift=0.0):
    return x * scale + shift


class Net(nn.Module):
    def __init__(self, *sizes, **kw):
        super().__init__()
        sizes = sizes or (3, 5)
        self.fc = nn.Linear(sizes[0], sizes[1], **kw)

    def forward(self, x):
        opts = {"square": True, "unused": 1}
        y, n, names = combine(x, x, x, weight=0.5, **opts)
        args = [y, x]
        z, m, _ = combine(*args)
        w = affine(self.fc(z), scale=2.0)
        print(n, m, names)
        return w, affine(y, shift=1.0, scale=3.0)
