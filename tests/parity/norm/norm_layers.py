# nn.GroupNorm, nn.PReLU (one weight and one per channel), nn.GLU, nn.Identity and
# their functional forms F.group_norm, F.prelu, F.glu, F.batch_norm with running
# statistics it updates (training=True), and torch.batch_norm's own argument order.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(2, 6)
        self.gn_plain = nn.GroupNorm(3, 6, eps=1e-2, affine=False)
        self.prelu = nn.PReLU()
        self.prelu_c = nn.PReLU(6, init=0.1)
        self.glu = nn.GLU(dim=1)
        self.ident = nn.Identity(54, unused=True)
        with torch.no_grad():
            self.gn.weight.copy_(torch.linspace(0.5, 2.0, 6))
            self.gn.bias.copy_(torch.linspace(-1.0, 1.0, 6))
            self.prelu_c.weight.copy_(torch.linspace(-0.3, 0.6, 6))

    def forward(self, x, w):
        a = self.gn(x)
        b = self.gn_plain(x * 3)
        c = self.prelu(x) + self.prelu_c(x)
        g = self.glu(x)
        f1 = F.group_norm(x, 3, w, None, 1e-4)
        f2 = F.prelu(x, w)
        f3 = F.glu(x, -1)
        rm = torch.zeros(6)
        rv = torch.ones(6)
        f4 = F.batch_norm(x, rm, rv, w, None, True, 0.25)
        f5 = torch.batch_norm(x, w, None, None, None, True, 0.1, 1e-5, False)
        i = self.ident(x)
        total = (a * a).sum() + (b * b.tanh()).sum() + (c * c).sum() + (g * g).sum()
        total = total + (f1 * f1).sum() + f2.sum() + (f3 * f3).sum() + (f4 * f4.sin()).sum()
        total = total + (f5 * f5).sum() + i.sum()
        return total, a, b, c, g, f1, f2, f3, f4, f5, rm, rv
