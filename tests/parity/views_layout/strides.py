import torch


# PyTorch's strides and contiguity of views, and contiguous()/reshape copying only
# when the layout needs it: a write into reshape(x) changes x; into reshape(x.t()) not.
def strides(x):
    t = x.t()
    s = x[:, 1:]
    e = x[:1].expand(3, 4)
    p = x.unsqueeze(1).permute(2, 0, 1)
    flags = [t.is_contiguous(), s.is_contiguous(), x.is_contiguous(), t.contiguous().is_contiguous()]
    h = x * 1
    h.reshape(12)[0] = 100.0
    g = x * 1
    g.t().reshape(12)[0] = 100.0
    c = x * 1
    c.t().contiguous()[0, 0] = 100.0
    return t.stride(), s.stride(), e.stride(), p.stride(), x.narrow(1, 1, 2).stride(1), flags, h, g, c
