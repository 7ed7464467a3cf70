# Writes through indices for onnx_judge_indexing (onnx/op_export_advanced_index.cpp,
# aten::index_put as ScatterND): a bool mask and a number, an index and a tensor, an
# index after a slice with += and with a tensor, two adjacent indices after a slice,
# two apart, negative indices, and index_put_ with accumulate=True (duplicate indices
# add up).
import torch


def index_put_onnx(x, idx, t):
    y = x.clone()
    y[x > 0.5] = 0.5
    y[idx] = y[idx] * 2
    y[:, idx] += 1.0
    y[:, idx] = y[:, idx] - x[:, :2] * 3
    y[:, idx, t[:2]] = -3.0
    y[idx, :, t[:2]] = x[0, :, :2].t()
    z = torch.zeros(4, 3)
    z.index_put_((t,), torch.ones(4, 3), accumulate=True)
    return y, z
