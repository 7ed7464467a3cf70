# The standard-library pieces used inside forward, where eager and trace modes run
# them and the parse route refuses them (errors/namedtuple_parse.py checks its
# message): a namedtuple made and returned, an OrderedDict of outputs, itertools over
# the outputs, and a partial of a module method.
import itertools
from collections import OrderedDict, namedtuple
from functools import partial

import torch
import torch.nn as nn

Output = namedtuple("Output", ["logits", "hidden"])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.out = nn.Linear(4, 2)

    def forward(self, x):
        h = torch.relu(self.fc(x))
        res = Output(self.out(h), h)
        table = OrderedDict()
        table["logits"] = res.logits
        table["hidden"] = res[1]
        total = sum(v.sum() for v in table.values())
        pairs = list(itertools.product(table.keys(), [1, 2]))
        running = list(itertools.accumulate([t.mean() for t in res]))
        logits, hidden = res
        step = partial(torch.add, alpha=0.5)
        return res, step(logits, logits), total, len(pairs), running[-1], len(res._fields)
