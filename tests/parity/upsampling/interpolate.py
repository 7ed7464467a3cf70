# F.interpolate and nn.Upsample: nearest by size and by scale factor (a non-integer
# one, and exactly twice), bilinear with and without align_corners (by size and by a
# per-dim scale factor, up and down), linear on a 3-d input, mode 'area', F.upsample,
# and the older UpsamplingNearest2d / UpsamplingBilinear2d modules.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.near = nn.Upsample(scale_factor=2)
        self.bil = nn.Upsample(size=(7, 4), mode="bilinear", align_corners=True)
        self.bil_half = nn.Upsample(scale_factor=(1.5, 2.5), mode="bilinear")
        self.lin = nn.Upsample(scale_factor=1.7, mode="linear")
        self.old_near = nn.UpsamplingNearest2d(size=5)
        self.old_bil = nn.UpsamplingBilinear2d(scale_factor=3)

    def forward(self, x, s):
        a = self.near(x)
        b = self.bil(x)
        c = self.bil_half(x)
        d = F.interpolate(x, size=(2, 9), mode="bilinear", align_corners=False)
        e = F.interpolate(x, scale_factor=0.6, mode="bilinear", align_corners=True)
        f = F.interpolate(x, size=(5, 3))
        g = F.interpolate(x, scale_factor=1.6, mode="nearest")
        h = self.lin(s)
        i = F.interpolate(s, size=11, mode="linear", align_corners=True)
        j = F.interpolate(s, scale_factor=3)
        k = F.interpolate(x, size=(2, 2), mode="area")
        m = F.upsample(x, size=6, mode="bilinear", align_corners=False)
        n = self.old_near(x)
        o = self.old_bil(x)
        outs = (a, b, c, d, e, f, g, h, i, j, k, m, n, o)
        total = a.sum()
        for t in outs:
            total = total + (t * t).sum()
        return (total,) + outs
