# Index writes: x[mask] = number, x[idx] = tensor, x[idx] += 1 with a repeated index
# (read, add, write: the repeat counts once, as in PyTorch), index_put_ with
# accumulate=True (every repeat adds), writes after int and slice steps, and a write
# through a view (y.view(...)[:, :, s] = v changes y). Gradients flow to x and to the
# written values; the total leaves out the view-written t, whose base's history d2s's
# autograd does not rebase yet (a write through a view, issue 17 item 4's view part).
import torch


def index_write(x, v, idx, mask):
    y = x * 1.0
    y[mask] = 0.25
    y[idx] = v * 3
    z = x.clone()
    z[idx] += 1
    w = torch.zeros(4, 5)
    w.index_put_((idx,), v[0], accumulate=True)
    u = x * 2
    u[0, idx] = -1.0
    u[1:, [1, 2]] = v[:, 1:3] * v[:, 1:3]
    t = x + 0
    t.view(2, 2, -1)[:, :, idx] = 7.0
    s = x.index_put((idx, idx), v[1, :3].exp(), accumulate=True)
    total = (y * y).sum() + z.sum() + w.sum() + (u * x).sum() + s.tanh().sum()
    return total, y, z, w, u, t, s
