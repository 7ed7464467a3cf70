import torch
import torch.nn.functional as F


# F.<activation>(..., inplace=True) and the in-place methods and functions on computed
# values: each writes its input, whose derivative PyTorch takes through the write.
def functional_inplace(x, w):
    h = x * w * 2
    a = F.relu(h * 1, inplace=True)
    b = h * 1.5
    F.leaky_relu(b, 0.1, True)
    c = h - 0.3
    c = F.elu(c, alpha=0.5, inplace=True)
    d = F.hardtanh(h * 1, -0.4, 0.6, True) + F.relu6(h * 4, inplace=True)
    e = F.silu(h + 0.1, True) + F.selu(h - 0.1, inplace=True)
    m = h * 1
    m.sigmoid_()
    n = h * 1
    n.tanh_()
    k = h * 1
    k.clamp_min_(-0.5).clamp_max_(0.5)
    p = h * 1
    F.leaky_relu_(p, 0.3)
    p2 = h * 1
    F.elu_(p2)
    p3 = h * 1
    F.hardtanh_(p3, -1.5, 1.5)
    q = h * 1
    torch.relu_(q)
    r = torch.selu_(h * 1) + torch.sigmoid_(h * 1) + torch.tanh_(h * 1)
    s = torch.clamp_(h * 1, -0.2, 0.2) + torch.clamp_min_(h * 1, 0.1) + torch.clamp_max_(h * 1, 0.1)
    t = F.relu(h, inplace=False) + F.leaky_relu(h) + F.elu(h) + F.hardtanh(h) + F.silu(h)
    out = a + b + c + d + e + m + n + k + p + p2 + p3 + q + r + s + t
    return out, b, c, n, k, p, p2, p3
