# roll (Slice + Concat), argsort (TopK), cumprod (ReduceProd of a masked broadcast,
# exact through zeros and negatives) and group_norm (explicit mean and variance) for
# onnx_judge_indexing (onnx/op_export_index.cpp, op_export_group_norm.cpp).
import torch
import torch.nn as nn


class Tensorops17Onnx(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.GroupNorm(2, 4)
        self.plain = nn.GroupNorm(4, 4, affine=False)

    def forward(self, x, v):
        r1 = torch.roll(x, 1, 1)
        r2 = torch.roll(x, shifts=(-1, 5), dims=(0, 2))
        r3 = torch.roll(x, 3)
        s1 = torch.argsort(v)
        s2 = torch.argsort(x, dim=1, descending=True)
        p1 = torch.cumprod(v, 0)
        p2 = torch.cumprod(x, 1)
        p3 = torch.cumprod((v > 0).long() * 2 - 1, 0)
        n1 = self.norm(x)
        n2 = self.plain(x.unsqueeze(-1))
        return r1, r2, r3, s1, s2, p1, p2, p3, n1, n2
