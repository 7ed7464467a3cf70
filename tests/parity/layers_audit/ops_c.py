# Issue 17 item 4's indexing and conversions: x[mask] = v, x[:, 1:] = x[:, :-1], `...`
# and None with step slices, .to(int64)/.long()/type_as, fmod/remainder, isnan/isinf,
# nonzero, any/all, full/zeros(dtype)/ones(bool), a 3-operand einsum, bmm/addmm, gather,
# index_select, expand_as/repeat, unbind/chunk/split, F.pad reflect/replicate,
# pixel_shuffle, bilinear interpolate with align_corners.
import torch
import torch.nn.functional as F


def ops_c(x, m, w):
    y = x.clone()
    y[m] = 0.0
    y[:, 1:] = x[:, :-1]
    z = x[..., None, ::2] + x[None, :, 1::2].transpose(0, 1)
    a = x.to(torch.int64).float() + x.long().type_as(x) + torch.fmod(x * 3, 2) + torch.remainder(x * 3, 2)
    b = torch.isnan(x.log()).float() + torch.isinf(1 / (x - x)).float()
    nz = torch.nonzero(x > 0)
    c = (x > 0).any() & (x.abs() >= 0).all()
    f = torch.full((2, 3), 2.5) + torch.zeros(2, 3, dtype=torch.int64) + torch.ones(3, dtype=torch.bool)
    e = torch.einsum("ij,jk,kl->il", x[:, :3], w, w.t())
    bm = torch.bmm(x.unsqueeze(0), x.t().unsqueeze(0)) + torch.addmm(x[:, :1], x, x.t(), beta=0.5, alpha=2)
    g = torch.gather(x, 1, torch.tensor([[0, 1], [2, 0], [1, 1], [0, 0]]))
    s = torch.index_select(x, 0, torch.tensor([3, 0])) + x.expand_as(x).repeat(1, 1)[:2]
    u = x.unbind(1)[0] + x.chunk(2, 1)[1].sum(1) + x.split([1, 3], dim=1)[1][:, 0]
    v = F.pad(x.unsqueeze(0), (2, 1), mode="reflect") + 0
    r = F.pad(x.unsqueeze(0), (1, 2, 0, 1), mode="replicate")
    ps = F.pixel_shuffle(x.reshape(1, 4, 2, 2), 2)
    up = F.interpolate(x[None, None], scale_factor=2, mode="bilinear", align_corners=True)
    return y, z, a, b, nz, c, f, e, bm, g, s, u, v, r, ps, up
