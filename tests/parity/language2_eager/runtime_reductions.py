# sum, any, all, min, max, enumerate, zip and reversed over lists built in forward, whose
# length is the input's (a list of tensors, a list of Python floats): eager and trace
# against PyTorch; the parse route refuses them naming the construct and the modes that
# run them (errors/), as it unrolls these builtins and the length is known only when the
# graph runs.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        outs = []
        for row in x:
            outs.append(self.fc(row))
        total = sum(outs)
        big = max(o.sum() for o in outs)
        small = min([o.mean() for o in outs])
        flags = (any(o.sum() > 0 for o in outs), all([bool(o.max() > -5) for o in outs]))
        acc = x.new_zeros(4)
        for i, o in enumerate(outs):
            acc = acc + o * i
        for a, b in zip(outs, reversed(outs)):
            acc = acc + a * b
        norms = [float(o.norm()) for o in outs]
        return total, big, small, flags, acc, max(norms), min(norms), sum(norms)
