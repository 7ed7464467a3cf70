import torch
import torch.nn.functional as F


# F.cross_entropy with label_smoothing and class indices: every reduction, with
# ignore_index (rows ignored; 'mean' divides both the nll and the smoothing term by the
# rows kept, as PyTorch 1.13 does) and class weights (detached: a weight gets no
# gradient in PyTorch).
def label_smoothing(x, w, y):
    wd = w.detach().abs() + 0.1
    mean = F.cross_entropy(x, y, label_smoothing=0.1)
    total = F.cross_entropy(x, y, reduction="sum", label_smoothing=0.25)
    rows = F.cross_entropy(x, y, reduction="none", label_smoothing=0.3)
    ignored = F.cross_entropy(x, y, ignore_index=1, label_smoothing=0.2)
    ignored_sum = F.cross_entropy(x, y, ignore_index=1, reduction="sum", label_smoothing=0.2)
    ignored_none = F.cross_entropy(x, y, ignore_index=1, reduction="none", label_smoothing=0.2)
    weighted = F.cross_entropy(x, y, weight=wd, label_smoothing=0.15)
    weighted_sum = F.cross_entropy(x, y, weight=wd, reduction="sum", label_smoothing=0.15)
    weighted_none = F.cross_entropy(x, y, weight=wd, reduction="none", label_smoothing=0.15)
    both = F.cross_entropy(x, y, weight=wd, ignore_index=2, label_smoothing=0.4)
    full = F.cross_entropy(x, y, label_smoothing=1.0)
    one = F.cross_entropy(x[0], y[0], label_smoothing=0.2)
    loss = (mean + total + rows.sum() + ignored + ignored_sum + ignored_none.sum() + weighted
            + weighted_sum + weighted_none.sum() + both + full + one)
    return loss, rows, ignored_none, weighted_none, both
