# nn.LSTM(proj_size=...) runs in PyTorch; d2s refuses it by name.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 4, proj_size=2)

    def forward(self, x):
        y, _ = self.lstm(x)
        return y
