# A key_padding_mask whose shape is not (N, S): PyTorch's AssertionError. The inputs are
# made in forward, so the parse route knows their shapes at conversion time.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(4, 2)

    def forward(self, x):
        q = torch.ones(5, 2, 4) * x.sum()
        pad = torch.zeros(2, 3, dtype=torch.bool)
        out, w = self.attn(q, q, q, key_padding_mask=pad)
        return out
