# The ops with an ONNX mapping in onnx/op_export_index.cpp, for onnx_judge: topk and
# sort (TopK), cumsum (CumSum), gather (GatherElements), scatter with a src and a value
# and scatter_add (ScatterElements), flip (Slice with step -1), nonzero (NonZero).
import torch


def sort_gather_onnx(x, idx):
    tv, ti = torch.topk(x, 2, dim=1)
    sv, si = torch.sort(x, dim=-1, descending=True)
    c = torch.cumsum(x, 0)
    g = torch.gather(x, 1, idx)
    s = torch.scatter(x, 1, idx, g * 2)
    v = x.scatter(1, idx, 0.5)
    a = torch.scatter_add(x, 1, idx, g)
    f = torch.flip(x, [0, 1])
    nz = torch.nonzero(x > 0)
    return tv, ti, sv, si, c, g, s, v, a, f, nz
