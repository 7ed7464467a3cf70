# Trace-safe control: `if self.training:` reads a module attribute, a constant at conversion
# time in both routes (as freezing does), so there is no finding; the training arm also
# returns an auxiliary penalty. Dropout's p is 0 to keep PyTorch parity deterministic.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TrainingFlag(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)
        self.p = 0.0

    def forward(self, x):
        h = F.dropout(torch.tanh(self.fc1(x)), p=self.p, training=self.training)
        out = self.fc2(h)
        if self.training:
            return out, out.square().mean()
        return out, torch.tensor(0.0)
