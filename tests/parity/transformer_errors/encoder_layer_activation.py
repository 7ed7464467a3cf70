# nn.TransformerEncoderLayer's activation given as a string other than "relu" or "gelu":
# PyTorch's RuntimeError from the constructor.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(8, 2, 16, activation="tanh")

    def forward(self, x):
        return self.layer(x)
