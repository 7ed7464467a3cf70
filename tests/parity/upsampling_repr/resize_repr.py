# repr() of the transposed convolution, upsampling, pixel shuffle and padding modules as
# PyTorch prints them (extra_repr). Eager mode only: the parse route, like
# torch.jit.script, cannot print a module. Also the default initialisation's bounds:
# weight and bias uniform within 1/sqrt(fan_in), fan_in = out_channels / groups * k
# (the weight's dim 1), the largest of 72 weights near the bound.
import math

import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = nn.ModuleList([
            nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1, groups=2,
                               bias=False, dilation=2),
            nn.ConvTranspose1d(2, 3, 3),
            nn.Upsample(scale_factor=2), nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True),
            nn.Upsample(size=3), nn.Upsample(scale_factor=(2, 3)),
            nn.UpsamplingBilinear2d(scale_factor=2), nn.UpsamplingNearest2d(size=4),
            nn.PixelShuffle(2), nn.PixelUnshuffle(3),
            nn.ZeroPad2d((1, 2, 0, 1)), nn.ZeroPad2d(2), nn.ConstantPad1d(2, 3.5),
            nn.ConstantPad2d((1, 0, 2, 0), 1), nn.ReflectionPad1d((1, 2)), nn.ReflectionPad2d(1),
            nn.ReplicationPad1d(3), nn.ReplicationPad2d((0, 1, 2, 3)),
        ])
        self.up = self.mods[1]

    def forward(self, x):
        print(self.mods)
        print(self.up.weight.shape, self.up.output_padding, self.mods[2].scale_factor)
        w = self.mods[0].weight
        bound = 1 / math.sqrt(3 * 3 * 2)
        print(bool(w.abs().max() <= bound), bool(w.abs().max() > 0.8 * bound))
        b = self.up.bias
        print(bool(b.abs().max() <= 1 / math.sqrt(9)), self.mods[0].bias is None)
        return x * 2
