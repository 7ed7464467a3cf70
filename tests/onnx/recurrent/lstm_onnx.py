# nn.LSTM for onnx_judge_recurrent (onnx/op_export_recurrent.cpp): two bidirectional
# batch_first layers from a given (h_0, c_0), and one layer without biases from zeros.
import torch
import torch.nn as nn


class LstmOnnx(nn.Module):
    def __init__(self):
        super().__init__()
        self.deep = nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)
        self.plain = nn.LSTM(3, 5, bias=False)

    def forward(self, x, h0, c0):
        y, (h, c) = self.deep(x, (h0, c0))
        z, (h2, c2) = self.plain(x)
        return y, h, c, z, h2, c2
