# Unbatched inputs (eager and trace; the parse route takes a recurrent layer's input
# as batched unless it knows its rank): 2-D inputs to nn.LSTM and nn.GRU with and
# without a state, a 1-D input to nn.RNNCell and nn.LSTMCell, and F.embedding with a
# negative padding_idx.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 4, num_layers=2)
        self.gru = nn.GRU(4, 2, batch_first=True)
        self.cell = nn.RNNCell(2, 3)
        self.lcell = nn.LSTMCell(2, 2)
        self.table = nn.Parameter(torch.randn(4, 3))

    def forward(self, x, h, idx):
        y, (hn, cn) = self.lstm(x)
        z, hz = self.gru(y, h)
        r = self.cell(z[0])
        lh, lc = self.lcell(hz[0], (z[1], z[2]))
        e = F.embedding(idx, self.table, padding_idx=-1)
        out = y.sum() + z.sum() + hn.sum() + cn.sum() + hz.sum() + r.sum() + lh.sum() + lc.sum()
        return out + (e * e).sum(), y, hn, cn, z, hz, r, lh, lc, e
