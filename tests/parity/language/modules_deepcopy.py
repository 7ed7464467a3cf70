# copy.deepcopy of a module, as transformer code stacks N copies of one layer: each
# copy has its own parameters (state_dict names layers.0.*, layers.1.*), tied weights
# inside the copied layer stay tied, and changing a copy leaves the original alone.
import copy

import torch
import torch.nn as nn


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.gate = nn.Linear(3, 3)
        self.gate.weight = self.fc.weight
        self.register_buffer("shift", torch.ones(3))

    def forward(self, x):
        return torch.tanh(self.fc(x) + self.gate(x)) + self.shift


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        layer = Layer()
        self.layers = nn.ModuleList()
        for i in range(3):
            self.layers.append(copy.deepcopy(layer))
        with torch.no_grad():
            self.layers[0].shift.fill_(2.0)
        self.original_shift = layer.shift.sum().item()
        self.tied = self.layers[1].gate.weight is self.layers[1].fc.weight
        self.distinct = self.layers[1].fc.weight is self.layers[2].fc.weight

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x, self.original_shift, self.tied, self.distinct
