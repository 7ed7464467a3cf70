# nn.MultiheadAttention with kdim/vdim different from embed_dim (q_proj_weight,
# k_proj_weight, v_proj_weight), add_bias_kv and add_zero_attn, and unbatched (2-d)
# inputs with a 1-d key padding mask and a 3-d mask of (num_heads, L, S).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(4, 2, kdim=3, vdim=5)
        self.extra = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)
        self.plain = nn.MultiheadAttention(4, 1)

    def forward(self, q, k, v, x, pad, m3):
        a, wa = self.attn(q, k, v)
        b, wb = self.extra(x, x, x)
        c, wc = self.plain(x[:, 0], x[:, 0], x[:, 0], key_padding_mask=pad)
        d, wd = self.attn(q[:, 1], k[:, 1], v[:, 1], attn_mask=m3, average_attn_weights=False)
        names = [n for n, _ in self.named_parameters()]
        return a, wa, b, wb, c, wc, d, wd, len(names), self.attn.in_proj_weight is None
