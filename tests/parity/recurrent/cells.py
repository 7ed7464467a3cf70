# nn.LSTMCell, nn.GRUCell and nn.RNNCell stepped over a sequence in a loop, with and
# without a given state.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTMCell(3, 4)
        self.gru = nn.GRUCell(4, 4, bias=False)
        self.rnn = nn.RNNCell(4, 2)

    def forward(self, x, h0):
        h, c = self.lstm(x[0])
        g = self.gru(h, h0)
        for t in range(1, x.size(0)):
            h, c = self.lstm(x[t], (h, c))
            g = self.gru(h, g)
        r = self.rnn(g)
        return h.sum() + c.sum() + (g * g).sum() + r.sum(), h, c, g, r
