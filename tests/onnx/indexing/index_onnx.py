# Advanced indexing for onnx_judge_indexing (onnx/op_export_advanced_index.cpp): one
# tensor index (Gather, negative indices too), two adjacent indices after a slice and
# two apart (GatherND, PyTorch's placement of the result dims), x[rows, t], a
# bool mask over one dim and over two, x[range(n), idx] (aten::arange as Range).
import torch


def index_onnx(x, idx, t, rows):
    a = x[idx]
    b = x[:, idx]
    c = x[:, idx, t[:2]]
    d = x[idx, :, t[:2]]
    e = x[0][rows, t]
    f = x[x[:, 0, 0] > 0]
    g = x[:, x[0] > 0]
    h = x[range(x.size(0)), idx] + torch.arange(0.5, 3.0, 1.0)
    return a, b, c, d, e, f, g, h
