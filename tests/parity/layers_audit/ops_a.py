# Issue 17 item 4 in one program, as attention and decoding code mixes them: a write
# through a view of a clone, x[range(b), t], baddbmm, div's rounding modes, sort
# descending, logsumexp/std/var, scatter, new_full + linspace, torch.tensor of nested
# lists, masked_fill, topk, cumsum/flip/roll, tril/triu; forward and gradient.
import torch
import torch.nn as nn
import torch.nn.functional as F


def ops_a(x, idx, t):
    b = x.shape[0]
    y = x.clone()
    y.view(b, 2, -1)[:, :, 1] = 3.0
    g = x[range(b), t]
    z = torch.baddbmm(x.unsqueeze(1)[:, :, :3], x.unsqueeze(2)[:, :2, :], x.unsqueeze(1)[:, :, :3])
    d = torch.div(x * 7, 2.0, rounding_mode="floor") + torch.div(x * 7, 2.0, rounding_mode="trunc")
    s, si = torch.sort(x, dim=1, descending=True)
    l = torch.logsumexp(x, dim=1) + x.std(dim=0).sum() + x.var(unbiased=False)
    sc = torch.zeros(b, 6).scatter(1, idx, x[:, :2])
    n = x.new_full((2, 3), 1.5) + torch.linspace(0, 1, 3)
    tt = torch.tensor([[1.0, 2.0], [3.0, 4.0]]) * x[0, 0]
    m = x.masked_fill(x > 0.5, -1.0)
    tp = torch.topk(x, 2, dim=1)[0]
    cs = x.cumsum(1) + x.flip(0) + x.roll(1, 1)
    tr = torch.tril(x[:, :4]) + torch.triu(x[:, :4], 1)
    return y, g, z, d, s, si, l, sc, n, tt, m, tp, cs, tr
