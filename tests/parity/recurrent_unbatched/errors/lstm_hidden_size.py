# A state of the wrong size: PyTorch's check_forward_args names the expected size.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 4, num_layers=2)

    def forward(self, x, h):
        y, _ = self.lstm(x, (h, h))
        return y
