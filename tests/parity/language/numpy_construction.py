# The numpy calls model code makes at construction time on Python numbers: np.sqrt,
# np.log, np.exp, np.prod of a shape, np.pi, and np.float32 / np.float64 / np.int64
# casts; also in forward on values known at conversion time (the parse route folds
# them).
import numpy as np
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, d_model=8):
        super().__init__()
        self.scale = float(np.sqrt(d_model))
        self.log_base = np.log(10000.0) / d_model
        self.area = int(np.prod((2, 3, 4)))
        self.total = np.sum([1.5, 2])
        self.angle = np.float32(np.pi / 3)
        self.count = np.int64(7.9) + 1
        self.wide = np.float64(np.exp(1.0))
        self.fc = nn.Linear(d_model, 2)

    def forward(self, x):
        h = self.fc(x / self.scale) * np.sqrt(2.0) + self.log_base
        return (h * np.pi, self.area, self.total, float(self.angle), int(self.count), float(self.wide),
                np.floor(2.5))
