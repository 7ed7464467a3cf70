# The recurrent cells for onnx_judge_recurrent (onnx/op_export_recurrent.cpp writes them
# as their formulas): LSTMCell from a given state and from zeros, GRUCell, RNNCell with
# tanh and, without biases, relu.
import torch
import torch.nn as nn


class CellsOnnx(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTMCell(3, 4)
        self.gru = nn.GRUCell(3, 4)
        self.tanh = nn.RNNCell(3, 4)
        self.relu = nn.RNNCell(3, 4, bias=False, nonlinearity="relu")

    def forward(self, x, h):
        h1, c1 = self.lstm(x, (h, h * 0.5))
        h2, c2 = self.lstm(x)
        g = self.gru(x, h)
        t = self.tanh(x, h)
        r = self.relu(x)
        return h1, c1, h2, c2, g, t, r
