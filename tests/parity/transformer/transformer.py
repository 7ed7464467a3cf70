# nn.Transformer: encoder and decoder stacks with their final norms, the causal mask of
# nn.Transformer.generate_square_subsequent_mask, and a batch_first pre-norm model whose
# source is padded.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2,
                                    num_decoder_layers=1, dim_feedforward=16, dropout=0.0)
        self.bf = nn.Transformer(8, 4, 1, 1, 12, 0.0, batch_first=True, norm_first=True)

    def forward(self, src, tgt, src_pad):
        T = tgt.size(0)
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(T)
        out = self.model(src, tgt, tgt_mask=tgt_mask)
        out_bf = self.bf(src.transpose(0, 1), tgt.transpose(0, 1), src_key_padding_mask=src_pad,
                         memory_key_padding_mask=src_pad)
        return out, out_bf, tgt_mask, self.model.d_model, self.model.nhead
