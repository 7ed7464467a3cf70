# An input whose feature size is not the layer's input_size.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, batch_first=True)

    def forward(self, x):
        y, h = self.gru(x)
        return y
