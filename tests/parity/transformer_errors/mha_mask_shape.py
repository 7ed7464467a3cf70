# A 2-d attn_mask whose shape is not (L, S): PyTorch's RuntimeError naming both shapes.
# The query is made in forward, so its shape is known when the parse route converts it
# (the parse route checks the mask's shape at conversion time, where the shapes are known).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(4, 2)

    def forward(self, x):
        q = torch.ones(5, 2, 4) * x.sum()
        mask = torch.zeros(4, 4)
        out, w = self.attn(q, q, q, attn_mask=mask)
        return out
