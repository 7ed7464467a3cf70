# sort, argsort, topk (largest and smallest, on a middle dim), cumsum and cumprod (a
# float, an int64 and a bool input, dtype=), flip and roll over several dims, as
# functions and methods.
import torch


def sort_scan(x, n, m):
    v, i = torch.sort(x, dim=1)
    dv, di = x.sort(descending=True)
    a = torch.argsort(x, dim=0, descending=True)
    tv, ti = torch.topk(x, 2, dim=1)
    sv, si = x.topk(3, largest=False)
    c = torch.cumsum(x, dim=-1)
    p = x.cumprod(0)
    ci = n.cumsum(0)
    cb = torch.cumsum(m, 1)
    cf = torch.cumsum(n, 0, dtype=torch.float32)
    f = torch.flip(x, [0, 2])
    r = x.roll(1, 2)
    r2 = torch.roll(x, shifts=(2, -1), dims=(1, 0))
    r3 = torch.roll(x, 3)
    total = (v * dv).sum() + (tv * tv).sum() + sv.exp().sum() + (c * p).sum()
    total = total + (f * r).sum() + (r2 * r3).sum()
    return total, v, i, dv, di, a, tv, ti, sv, si, c, p, ci, cb, cf, f, r, r2, r3
