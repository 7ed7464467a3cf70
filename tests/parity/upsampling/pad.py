# F.pad in modes constant (with a value, negative pads that crop, more dims than the
# spatial ones), reflect, replicate and circular on 3-d and 4-d inputs (circular needs
# a batch and a channel dim), padding as large as PyTorch allows (reflect: size - 1),
# and the padding modules.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.zero = nn.ZeroPad2d((1, 2, 0, 3))
        self.const1 = nn.ConstantPad1d(2, 3.5)
        self.const2 = nn.ConstantPad2d((0, 1, 2, 0), -1.0)
        self.refl1 = nn.ReflectionPad1d((3, 1))
        self.refl2 = nn.ReflectionPad2d(2)
        self.rep1 = nn.ReplicationPad1d(4)
        self.rep2 = nn.ReplicationPad2d((3, 0, 1, 5))

    def forward(self, x, s):
        outs = (
            F.pad(x, (1, 1)),
            F.pad(x, (2, 0, 1, 3), value=0.25),
            F.pad(x, (-1, 1, 0, 0, 1, 1), "constant", 2.0),
            F.pad(x, (2, 2, 2, 1), mode="reflect"),
            F.pad(x, (1, 3, 4, 0), mode="replicate"),
            F.pad(x, (1, 2, 2, 1), mode="circular"),
            F.pad(s, (3, 2), mode="reflect"),
            F.pad(s, (5, 1), mode="replicate"),
            F.pad(s.view(1, -1, s.shape[-1]), (2, 3), mode="circular"),
            self.zero(x),
            self.const1(s),
            self.const2(x),
            self.refl1(s),
            self.refl2(x),
            self.rep1(s),
            self.rep2(x),
        )
        total = x.sum()
        for i, t in enumerate(outs):
            total = total + (t * t).sum() * (i + 1)
        return (total,) + outs
