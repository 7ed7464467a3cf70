# The pattern card's DynamicModel. `if self.training:` is a module constant, decided at
# conversion time in both routes (no finding); the f-string print runs in eager mode only.
# `if x.mean() > 0.5` is data-dependent: a trace keeps either the ReLU or the bare Linear.
import torch
import torch.nn as nn


class DynamicModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(10, 5)
        self.linear2 = nn.Linear(5, 1)

    def forward(self, x):
        # Easy to add print statements, conditional logic
        if self.training:
            print(f"Input shape: {x.shape}")
        # Dynamic control flow based on input
        if x.mean() > 0.5:
            x = self.linear1(x)
        else:
            x = torch.relu(self.linear1(x))
        return self.linear2(x)
