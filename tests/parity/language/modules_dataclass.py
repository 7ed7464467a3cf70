# A @dataclass config, as minGPT/nanoGPT-style files write their hyperparameters:
# fields with defaults, field(default_factory=...), a subclass adding fields, and
# __post_init__; the model reads the config in __init__.
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn


def default_widths():
    return [4, 6]


@dataclass
class BaseConfig:
    n_in: int = 3
    scale: float = 1.0


@dataclass
class Config(BaseConfig):
    widths: List[int] = field(default_factory=default_widths)
    bias: bool = True
    n_out: int = 2

    def __post_init__(self):
        self.n_hidden = self.widths[-1]


class ConfiguredMLP(nn.Module):
    def __init__(self, config=None):
        super().__init__()
        if config is None:
            config = Config(scale=0.5, n_out=2)
        self.config = config
        self.fc1 = nn.Linear(config.n_in, config.widths[0], bias=config.bias)
        self.fc2 = nn.Linear(config.widths[0], config.n_hidden)
        self.head = nn.Linear(config.n_hidden, config.n_out)
        self.scale = config.scale
        self.n_out = Config().n_out + len(Config(1, 2.0, [1, 2, 3]).widths)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        h = torch.relu(self.fc2(h))
        return self.head(h) * self.scale, self.n_out
