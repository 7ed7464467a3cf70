# Dropout: nn.Dropout and nn.Dropout2d are the identity in eval mode (here a child put
# in eval), F.dropout/F.dropout2d with training=False too; in training mode the masks
# come from d2s's generator (docs/random.md), not PyTorch's, so what is compared is
# what both guarantee: every element is 0 or x / (1 - p), Dropout2d zeroes or keeps
# whole channels, p=1 zeroes everything and p=0 keeps everything.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.3)
        self.drop2d = nn.Dropout2d(p=0.4)
        self.off = nn.Dropout2d(0.9)
        self.off.eval()

    def forward(self, x):
        y = F.dropout(x, 0.5, training=False) + self.off(x) * 2
        y = y + F.dropout2d(x, 0.7, False) + F.dropout(x, p=0.0)
        t = self.drop(x)
        scaled = x / 0.7
        elementwise = ((t == 0) | ((t - scaled).abs() <= 1e-5 * scaled.abs())).all()
        c = self.drop2d(x)
        zeros = (c == 0).float().sum((2, 3))
        whole = ((zeros == 0) | (zeros == x.shape[2] * x.shape[3])).all()
        kept = ((c == 0) | ((c - x / 0.6).abs() <= 1e-5 * x.abs() / 0.6)).all()
        none_kept = (F.dropout(x, 1.0) == 0).all() & (F.dropout2d(x, 1.0) == 0).all()
        return y, elementwise, whole, kept, none_kept
