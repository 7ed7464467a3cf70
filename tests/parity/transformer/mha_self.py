# nn.MultiheadAttention as self-attention (query is key is value): the packed
# in-projection, averaged weights, per-head weights, need_weights=False, a float 2-d
# causal mask and a bool key padding mask; parameter names and shapes as state_dict has them.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2)

    def forward(self, x, pad):
        out, w = self.attn(x, x, x)
        L = x.size(0)
        causal = torch.triu(torch.full((L, L), float("-inf")), diagonal=1)
        out2, w2 = self.attn(x, x, x, attn_mask=causal, average_attn_weights=False)
        out3, none = self.attn(x, x, x, key_padding_mask=pad, need_weights=False)
        names = [(n, list(p.shape)) for n, p in self.attn.named_parameters()]
        return out, w, out2, w2, out3, none is None, len(names), names[0][1], names[-1][1]
