# nn.GRU and nn.RNN for onnx_judge_recurrent (onnx/op_export_recurrent.cpp): GRU with
# two layers and a given h_0 (linear_before_reset=1), a bidirectional GRU without
# biases, a two-layer bidirectional ReLU RNN and a batch_first tanh RNN with a given h_0.
import torch
import torch.nn as nn


class GruRnnOnnx(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, num_layers=2)
        self.gru_bi = nn.GRU(3, 2, bidirectional=True, bias=False)
        self.relu = nn.RNN(3, 4, num_layers=2, nonlinearity="relu", bidirectional=True)
        self.tanh = nn.RNN(3, 4, batch_first=True)

    def forward(self, x, h0):
        a, ha = self.gru(x, h0)
        b, hb = self.gru_bi(x)
        c, hc = self.relu(x)
        d, hd = self.tanh(x.transpose(0, 1), h0[:1])
        return a, ha, b, hb, c, hc, d, hd
