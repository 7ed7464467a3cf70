# Trace-safe control: a Linear-ReLU-Linear MLP (nn.Sequential plus a head) with no
# control flow. Tracing and parsing give the same graph; parameters are named as in the
# state_dict (body.0.weight, head.bias).
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        logits = self.head(self.body(x))
        return logits, logits.argmax(dim=1)
