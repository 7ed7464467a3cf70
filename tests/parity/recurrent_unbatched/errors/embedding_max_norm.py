# nn.Embedding(max_norm=...) renormalises its weight in place; d2s refuses it by name.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 2, max_norm=1.0)

    def forward(self, idx):
        return self.emb(idx)
