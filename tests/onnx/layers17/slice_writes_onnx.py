# Writes through slices and selects (aten::slice_scatter / select_scatter once the graph
# is made functional) as ScatterElements, judged by onnxruntime against PyTorch: the
# shift x[:, 1:] = y[:, :-1], a negative start, a step, a select with a negative index,
# a scalar fill, and a write through a slice of a select.
import torch


def slice_writes_onnx(x, y):
    z = x * 1.0
    z[:, 1:] = y[:, :-1]
    z[-2:, :, ::2] = 0.5
    z[:, -1] = y[:, 0] * 3.0
    w = x + 1.0
    w[1, :, 1:3] = y[0, :, :2]
    w[0, 2:] = -1.0
    return z, w
