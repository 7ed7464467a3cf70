# nn.MultiheadAttention between sequences: encoder-decoder attention (key is value, a
# different query: the split in-projection), three different tensors, batch_first,
# no bias, a bool 2-d mask, a 3-d float mask per batch and head, and a float padding mask.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.cross = nn.MultiheadAttention(6, 3, bias=False)
        self.bf = nn.MultiheadAttention(6, 2, batch_first=True)

    def forward(self, q, mem, v, bmask, fmask, fpad):
        a, wa = self.cross(q, mem, mem)
        b, wb = self.cross(q, mem, v, attn_mask=bmask)
        c, wc = self.cross(q, mem, mem, attn_mask=fmask)
        qb = q.transpose(0, 1)
        mb = mem.transpose(0, 1)
        d, wd = self.bf(qb, mb, mb, key_padding_mask=fpad)
        e, we = self.bf(qb, qb, qb)
        return a, wa, b, wb, c, wc, d, wd, e, we
