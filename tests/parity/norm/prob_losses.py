# F.kl_div (every reduction, 'batchmean', log_target) and F.binary_cross_entropy
# (weight, every reduction), with gradients for the input and the target. (The weight is
# detached: PyTorch's binary_cross_entropy refuses a weight that requires grad.)
import torch
import torch.nn.functional as F


def losses(logp, q, p, t, w):
    q = q.softmax(-1)
    p = p.sigmoid()
    kl = (F.kl_div(logp, q, reduction="batchmean") + F.kl_div(logp, q, reduction="sum")
          + F.kl_div(logp, q) + F.kl_div(logp, q.log(), reduction="mean", log_target=True))
    per = F.kl_div(logp, q, reduction="none")
    bce = F.binary_cross_entropy(p, t)
    bce = bce + F.binary_cross_entropy(p, t, weight=w.detach(), reduction="sum")
    bce_none = F.binary_cross_entropy(p, t, reduction="none")
    return kl + bce + (per * per).sum() + bce_none.sum(), per, bce_none
