# Resize for mode 'bicubic' (cubic, cubic_coeff_a -0.75) and 'trilinear' (linear on a
# 5-d input), align_corners both ways, by size and by scale factor, judged by
# onnxruntime against PyTorch.
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.cubic = nn.Upsample(scale_factor=2, mode="bicubic", align_corners=False)

    def forward(self, x, v):
        a = self.cubic(x)
        b = F.interpolate(x, size=(7, 3), mode="bicubic", align_corners=True)
        c = F.interpolate(x, scale_factor=0.75, mode="bicubic")
        d = F.interpolate(v, size=(3, 5, 4), mode="trilinear", align_corners=True)
        e = F.interpolate(v, scale_factor=2.0, mode="trilinear", align_corners=False)
        return a, b, c, d, e
