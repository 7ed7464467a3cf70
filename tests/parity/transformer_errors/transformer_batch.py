# nn.Transformer with source and target of different batch sizes: PyTorch's RuntimeError.
# The tensors are made in forward, so the parse route knows their sizes at conversion time.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Transformer(8, 2, 1, 1, 16, 0.0)

    def forward(self, x):
        src = torch.ones(5, 2, 8) * x.sum()
        tgt = torch.ones(3, 3, 8)
        return self.model(src, tgt)
