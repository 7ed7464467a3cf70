# nn.TransformerEncoder over deep copies of an nn.TransformerEncoderLayer (post-norm,
# relu) with a final LayerNorm, a causal float mask and a bool padding mask; a pre-norm
# gelu layer with batch_first; an activation given as a module. Dropout 0, so training
# mode gives PyTorch's numbers.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8))
        self.pre = nn.TransformerEncoderLayer(8, 4, 12, 0.0, "gelu", batch_first=True,
                                              norm_first=True)
        self.mod_act = nn.TransformerEncoderLayer(8, 2, 10, dropout=0.0, activation=nn.Tanh(),
                                                  layer_norm_eps=1e-6)

    def forward(self, src, pad):
        L = src.size(0)
        mask = (torch.triu(torch.ones(L, L)) == 1).transpose(0, 1)
        mask = mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, float(0.0))
        a = self.encoder(src, mask)
        b = self.encoder(src, mask=mask, src_key_padding_mask=pad)
        c = self.pre(src.transpose(0, 1), src_key_padding_mask=pad)
        d = self.mod_act(src, src_mask=mask)
        e = self.encoder(src[:, 0])
        return a, b, c, d, e, len(self.encoder.layers), self.pre.activation_relu_or_gelu
