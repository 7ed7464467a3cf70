# nn.ConvTranspose2d/1d's forward(x, output_size=...): the output_padding PyTorch
# computes from the requested size (as a list of the spatial sizes, a full torch.Size
# of a skip connection, a keyword tuple), U-Net style, and an unbatched 1-d input.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1)
        self.wide = nn.ConvTranspose2d(3, 2, (2, 3), stride=(3, 2), dilation=(1, 2))
        self.seq = nn.ConvTranspose1d(2, 2, 4, stride=3, padding=1)

    def forward(self, x, s):
        h = torch.relu(self.down(x))
        u = self.up(h, output_size=x.size())
        skip = u + x
        h2, w2 = skip.size(2) * 3 + 1, skip.size(3) * 2 + 4
        v = self.wide(skip, [h2, w2])
        n = s.size(1)
        t = self.seq(s, output_size=(n * 3,))
        return (u * u).sum() + v.tanh().sum() + t.sum(), u, v, t
