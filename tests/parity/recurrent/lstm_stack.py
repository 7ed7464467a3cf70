# nn.Embedding (padding_idx) into a two-layer bidirectional batch_first nn.LSTM with a
# given (h, c) state and a one-layer nn.LSTM without one; PyTorch's parameter names
# (lstm.weight_ih_l1_reverse, ...) carry the weights across.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 5, padding_idx=0)
        self.lstm = nn.LSTM(5, 4, num_layers=2, bidirectional=True, batch_first=True)
        self.top = nn.LSTM(8, 3)

    def forward(self, tokens, h0, c0):
        e = self.emb(tokens)
        y, (h, c) = self.lstm(e, (h0, c0))
        z, (hz, cz) = self.top(y.transpose(0, 1))
        return (y * y).sum() + z.sum() + h.sum() + c.tanh().sum() + hz.sum() + cz.sum(), y, h, c, z
