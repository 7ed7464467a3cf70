# Activations as functions and as modules: F.hardtanh, F.relu6, F.elu, F.selu,
# F.leaky_relu, F.silu, F.softplus, F.softmax, F.log_softmax and nn.LeakyReLU, nn.SiLU,
# nn.Softplus, nn.Softmax, nn.LogSoftmax, nn.Hardtanh, nn.ReLU6, nn.ELU, nn.SELU.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.leaky = nn.LeakyReLU(0.2)
        self.silu = nn.SiLU()
        self.softplus = nn.Softplus(beta=2, threshold=1.5)
        self.softmax = nn.Softmax(dim=1)
        self.log_softmax = nn.LogSoftmax(dim=-1)
        self.hardtanh = nn.Hardtanh(-0.5, 2.0)
        self.relu6 = nn.ReLU6()
        self.elu = nn.ELU(alpha=0.7)
        self.selu = nn.SELU()

    def forward(self, x):
        a = F.hardtanh(x, -0.5, 0.75)
        b = F.relu6(x * 4)
        c = F.elu(x, 0.5)
        d = F.selu(x)
        e = F.leaky_relu(x, 0.2) + F.silu(x) + F.softplus(x, 2.0) + F.softmax(x, 0)
        total = (a * a).sum() + (b * b).sum() + c.tanh().sum() + (d * d).sum() + (e * e).sum()
        h = x * 3
        m = (self.leaky(h), self.silu(h), self.softplus(h), self.softmax(h), self.log_softmax(h),
             self.hardtanh(h), self.relu6(h), self.elu(h), self.selu(h))
        for y in m:
            total = total + (y * y).sum()
        return total, a, b, c, d, e, m
