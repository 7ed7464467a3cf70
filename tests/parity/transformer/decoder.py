# nn.TransformerDecoder over copies of an nn.TransformerDecoderLayer with a final norm,
# a causal target mask and padding masks for target and memory; a pre-norm gelu decoder
# layer with batch_first. Dropout 0, so training mode gives PyTorch's numbers.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
        self.decoder = nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(8))
        self.pre = nn.TransformerDecoderLayer(8, 4, 12, 0.0, "gelu", batch_first=True,
                                              norm_first=True)

    def forward(self, tgt, memory, tgt_pad, mem_pad):
        T = tgt.size(0)
        causal = torch.triu(torch.full((T, T), float("-inf")), diagonal=1)
        a = self.decoder(tgt, memory, tgt_mask=causal)
        b = self.decoder(tgt, memory, causal, None, tgt_pad, mem_pad)
        c = self.pre(tgt.transpose(0, 1), memory.transpose(0, 1), memory_key_padding_mask=mem_pad)
        return a, b, c
