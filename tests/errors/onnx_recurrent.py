import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, num_layers=2, dropout=0.5)

    def forward(self, x):
        y, h = self.gru(x.unsqueeze(1))
        return y
