# repr() of nn.Embedding and the recurrent modules as PyTorch prints them (extra_repr),
# their attributes, and their parameters' state_dict names and shapes (PyTorch's order:
# per layer, per direction, weight_ih, weight_hh, bias_ih, bias_hh). Printed lines are
# compared in eager mode.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = nn.ModuleList([
            nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=-2),
            nn.Embedding(4, 2, scale_grad_by_freq=True),
            nn.RNN(3, 4), nn.RNN(3, 4, 2, nonlinearity="relu", batch_first=True),
            nn.LSTM(3, 4, num_layers=2, bias=False, dropout=0.5),
            nn.GRU(3, 4, bidirectional=True), nn.LSTM(2, 3, bidirectional=True, num_layers=2),
            nn.RNNCell(3, 4), nn.RNNCell(3, 4, nonlinearity="relu", bias=False),
            nn.LSTMCell(3, 4), nn.GRUCell(3, 4, bias=False),
        ])

    def forward(self, x):
        print(self.mods)
        for m in self.mods:
            for name, p in m.named_parameters():
                print(name, p.shape)
        lstm = self.mods[5]
        print(lstm.mode, lstm.input_size, lstm.hidden_size, lstm.num_layers, lstm.bias,
              lstm.batch_first, lstm.dropout, lstm.bidirectional)
        print(self.mods[1].padding_idx, self.mods[0].padding_idx, self.mods[4].nonlinearity)
        return x * 2
