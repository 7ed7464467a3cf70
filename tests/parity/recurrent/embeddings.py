# F.embedding with a padding_idx, torch.embedding, nn.Embedding.from_pretrained
# (trainable), scale_grad_by_freq, and indices of rank 0 to 2.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(torch.randn(6, 3))
        self.pre = nn.Embedding.from_pretrained(torch.randn(5, 2), freeze=False, padding_idx=1)
        self.freq = nn.Embedding(7, 2, scale_grad_by_freq=True)

    def forward(self, idx, flat):
        a = F.embedding(idx, self.table, padding_idx=5)
        b = torch.embedding(self.table, flat)
        c = self.pre(idx % 5)
        d = self.freq(flat)
        e = self.freq(flat[0])
        return (a * a).sum() + b.sum() + c.sum() + (d * d).sum() + e.sum(), a, b, c, d, e
