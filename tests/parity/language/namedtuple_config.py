# collections.namedtuple as model files use it for configuration: made at the top
# level (field names as a list or as one string), built in __init__, read in forward by
# field name, index and unpacking, with _fields; the parse route reads the fields of
# one kept in a module attribute at conversion time.
from collections import namedtuple

import torch
import torch.nn as nn

Config = namedtuple("Config", ["hidden", "scale", "use_bias"])
Shape = namedtuple("Shape", "rows, cols")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = Config(hidden=5, scale=0.5, use_bias=True)
        self.shape = Shape(2, 3)
        rows, cols = self.shape
        self.fc = nn.Linear(rows * cols, self.cfg.hidden, bias=self.cfg[2])
        self.n_fields = len(Config._fields) + len(self.cfg)
        self.described = repr(self.shape) + " " + ",".join(self.cfg._fields)

    def forward(self, x):
        h = self.fc(x.reshape(x.shape[0], self.shape.rows * self.shape[1]))
        hidden, scale, _ = self.cfg
        return h * self.cfg.scale + scale, hidden, self.n_fields, len(self.described)
