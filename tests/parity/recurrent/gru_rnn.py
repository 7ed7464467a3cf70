# nn.GRU (bidirectional, no bias, time-major), nn.RNN with relu over two layers and a
# given state, and nn.RNN (tanh, batch_first) without one.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, bidirectional=True, bias=False)
        self.relu_rnn = nn.RNN(8, 5, num_layers=2, nonlinearity="relu")
        self.tanh_rnn = nn.RNN(5, 2, batch_first=True)

    def forward(self, x, h):
        g, hg = self.gru(x)
        r, hr = self.relu_rnn(g, h)
        t, ht = self.tanh_rnn(r.transpose(0, 1))
        return g.sum() + (r * r).sum() + t.sum() + hg.sum() + hr.sum() + ht.sum(), g, hg, r, t, ht
