import torch
import torch.nn.functional as F


# F.cross_entropy with class-probability targets (a float target of the input's
# shape): every reduction, with label_smoothing and class weights; the target gets a
# gradient too.
def prob_targets(x, t, w):
    p = t.softmax(-1)
    wd = w.detach().abs() + 0.1
    mean = F.cross_entropy(x, p)
    total = F.cross_entropy(x, p, reduction="sum")
    rows = F.cross_entropy(x, p, reduction="none")
    smooth = F.cross_entropy(x, p, label_smoothing=0.2)
    smooth_none = F.cross_entropy(x, p, reduction="none", label_smoothing=0.3)
    weighted = F.cross_entropy(x, p, weight=wd, label_smoothing=0.1)
    weighted_sum = F.cross_entropy(x, p, weight=wd, reduction="sum")
    weighted_none = F.cross_entropy(x, p, weight=wd, reduction="none", label_smoothing=0.5)
    one = F.cross_entropy(x[0], p[0], label_smoothing=0.2)
    loss = (mean + total + rows.sum() + smooth + smooth_none.sum() + weighted + weighted_sum
            + weighted_none.sum() + one)
    return loss, rows, smooth_none, weighted_none
