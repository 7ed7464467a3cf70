import torch
import torch.nn as nn
import torch.nn.functional as F


# Dropout with inplace=True: the input itself holds the result afterwards. In training
# the masks come from d2s's generator (docs/random.md), not PyTorch's, so what is
# compared is what both guarantee: each element 0 or x / (1 - p), whole channels for
# Dropout2d, and the input overwritten. The first output (differentiated by the grad
# suites) takes only the deterministic forms: eval mode, p=0 and p=1.
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.3, inplace=True)
        self.drop2d = nn.Dropout2d(p=0.4, inplace=True)
        self.off = nn.Dropout(0.5, inplace=True)
        self.off.eval()
        self.off2d = nn.Dropout2d(0.5, True)
        self.off2d.eval()

    def forward(self, x):
        h = x * 2
        det = self.off(h) + self.off2d(h * 1) + F.dropout(h * 1, 0.0, True, True)
        det = det + F.dropout(h * 1, p=1.0, training=True, inplace=True)
        det = det + F.dropout2d(h * 1, 0.5, False, True) + F.dropout(h * 1, 0.5, False, True)
        t = h * 1
        r = self.drop(t)
        same = (r - t).abs().sum() == 0  # the module returned its overwritten input
        scaled = h / 0.7
        elementwise = ((t == 0) | ((t - scaled).abs() <= 1e-5 * scaled.abs())).all()
        c = h * 1
        self.drop2d(c)
        zeros = (c == 0).float().sum((2, 3))
        whole = ((zeros == 0) | (zeros == h.shape[2] * h.shape[3])).all()
        kept = ((c == 0) | ((c - h / 0.6).abs() <= 1e-5 * h.abs() / 0.6)).all()
        f = h * 1
        F.dropout(f, 0.5, True, True)
        g = h * 1
        F.dropout2d(g, 0.5, inplace=True)
        fine = (((f == 0) | ((f - h * 2).abs() <= 1e-5 * h.abs() * 2)).all()
                & ((g == 0) | ((g - h * 2).abs() <= 1e-5 * h.abs() * 2)).all())
        # An activation in place after dropout in place: dropout's node keeps its
        # mask, so backward through both works (PyTorch saves the mask too).
        u = h * 1
        self.drop(u)
        F.relu(u, inplace=True)
        det = det + u.sum() * 0
        return det, same, elementwise, whole, kept, fine
