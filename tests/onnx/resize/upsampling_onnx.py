# The ONNX mapping of onnx/op_export_resize.cpp, judged by onnxruntime: ConvTranspose
# (stride, padding, output_padding, groups, dilation; 1-d too), Resize for nearest
# (size and scale factor) and bilinear with and without align_corners and linear,
# DepthToSpace (CRD) for pixel_shuffle, pixel_unshuffle, and Pad in modes constant,
# reflect and edge.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1)
        self.grouped = nn.ConvTranspose2d(6, 4, 3, groups=2, dilation=(1, 2), bias=False)
        self.seq = nn.ConvTranspose1d(4, 2, 3, stride=3, padding=1)
        self.near = nn.Upsample(scale_factor=2)
        self.bil = nn.Upsample(size=(7, 5), mode="bilinear", align_corners=True)
        self.shuffle = nn.PixelShuffle(2)
        self.unshuffle = nn.PixelUnshuffle(2)
        self.refl = nn.ReflectionPad2d((1, 2, 2, 1))
        self.rep = nn.ReplicationPad2d(2)
        self.zero = nn.ZeroPad2d((0, 1, 1, 0))

    def forward(self, x):
        h = torch.relu(self.up(x))
        g = self.grouped(h)
        s = self.seq(x.flatten(2))
        a = self.near(x)
        b = self.bil(x)
        c = F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=False)
        d = F.interpolate(x, size=(5, 3))
        e = F.interpolate(x.flatten(2), size=9, mode="linear")
        p = self.shuffle(x)
        q = self.unshuffle(self.zero(x)[:, :, :4, :4])
        r = self.refl(x)
        t = self.rep(x)
        u = F.pad(x, (1, 1, 0, 2), value=0.5)
        return g, s, a, b, c, d, e, p, q, r, t, u
