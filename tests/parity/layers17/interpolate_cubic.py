# F.interpolate / nn.Upsample with mode 'bicubic' (align_corners both ways; PyTorch's
# A = -0.75 and its border clamping; by size, by a per-dim scale factor up and down)
# and 'trilinear' on 5-d input (align_corners both ways, size and scale factor).
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.cubic = nn.Upsample(scale_factor=(1.5, 2.25), mode="bicubic")
        self.tri = nn.Upsample(size=(3, 5, 4), mode="trilinear", align_corners=True)

    def forward(self, x, v):
        a = self.cubic(x)
        b = F.interpolate(x, size=(7, 3), mode="bicubic", align_corners=True)
        c = F.interpolate(x, scale_factor=0.6, mode="bicubic", align_corners=False)
        d = F.interpolate(x, size=(1, 5), mode="bicubic", align_corners=True)
        e = self.tri(v)
        f = F.interpolate(v, scale_factor=(2.0, 1.5, 0.7), mode="trilinear", align_corners=False)
        g = F.interpolate(v, size=7, mode="trilinear")
        outs = (a, b, c, d, e, f, g)
        total = a.sum()
        for t in outs:
            total = total + (t * t).sum()
        return (total,) + outs
