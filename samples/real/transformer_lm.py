"""A word-level language model written the way the PyTorch word-language-model tutorial
writes its TransformerModel: token embeddings scaled by sqrt(d_model), a sinusoidal
positional encoding kept as a buffer, nn.TransformerEncoder over copies of an
nn.TransformerEncoderLayer, a linear decoder, and a causal mask made per call when the
caller gives none.
"""
import math
from typing import Optional

import torch
from torch import Tensor, nn
from torch.nn import TransformerEncoder, TransformerEncoderLayer


class PositionalEncoding(nn.Module):

    def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)

    def forward(self, x: Tensor) -> Tensor:
        """x: [seq_len, batch_size, embedding_dim]"""
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


def generate_square_subsequent_mask(sz: int) -> Tensor:
    """An upper-triangular matrix of -inf with zeros on and below the diagonal."""
    return torch.triu(torch.ones(sz, sz) * float('-inf'), diagonal=1)


class TransformerModel(nn.Module):

    def __init__(self, ntoken: int = 24, d_model: int = 16, nhead: int = 2, d_hid: int = 32,
                 nlayers: int = 2, dropout: float = 0.0):
        super().__init__()
        self.model_type = 'Transformer'
        self.pos_encoder = PositionalEncoding(d_model, dropout, max_len=64)
        encoder_layers = TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.decoder = nn.Linear(d_model, ntoken)

        self.init_weights()

    def init_weights(self) -> None:
        initrange = 0.1
        self.encoder.weight.data.uniform_(-initrange, initrange)
        self.decoder.bias.data.zero_()
        self.decoder.weight.data.uniform_(-initrange, initrange)

    def forward(self, src: Tensor, src_mask: Optional[Tensor] = None) -> Tensor:
        """src: [seq_len, batch_size] token ids; returns [seq_len, batch_size, ntoken]."""
        if src_mask is None:
            src_mask = generate_square_subsequent_mask(src.size(0))
        src = self.encoder(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        output = self.decoder(output)
        return output
