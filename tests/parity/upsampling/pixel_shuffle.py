# nn.PixelShuffle / nn.PixelUnshuffle and their F. and torch. forms: a batched input,
# an unbatched one (3 dims) and one with two leading dims; shuffle then unshuffle
# gives the input back.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.shuffle = nn.PixelShuffle(2)
        self.unshuffle = nn.PixelUnshuffle(3)

    def forward(self, x, u):
        a = self.shuffle(x)
        b = F.pixel_unshuffle(a, 2)
        c = self.unshuffle(u)
        d = F.pixel_shuffle(c, 3)
        e = torch.pixel_shuffle(x[0], 2)
        f = torch.pixel_unshuffle(u.unsqueeze(0), 3)
        g = F.pixel_shuffle(x.unsqueeze(0), 2)
        total = (a * torch.arange(a.numel()).view(a.shape)).sum() + (c * c).sum() + f.tanh().sum()
        return total, a, b, c, d, e, f, g
