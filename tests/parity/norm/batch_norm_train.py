# nn.BatchNorm1d/2d in training mode over several steps: batch statistics (biased
# variance) normalise, the running statistics move by momentum with the unbiased
# variance, num_batches_tracked counts, momentum=None averages cumulatively; affine=False
# and track_running_stats=False; the buffers read after the steps.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn1 = nn.BatchNorm1d(5)
        self.bn2 = nn.BatchNorm2d(3, eps=1e-3, momentum=0.3)
        self.cumulative = nn.BatchNorm1d(5, momentum=None)
        self.plain = nn.BatchNorm2d(3, affine=False)
        self.untracked = nn.BatchNorm1d(4, track_running_stats=False)
        with torch.no_grad():
            self.bn1.weight.copy_(torch.linspace(0.5, 1.5, 5))
            self.bn1.bias.copy_(torch.linspace(-0.2, 0.2, 5))

    def forward(self, x, img, seq):
        total = x.sum() * 0
        b = img
        for step in range(3):
            a = self.bn1(x * (step + 1) + step)
            b = self.bn2(img + step * 0.5)
            c = self.cumulative(x - step)
            d = self.plain(img * (2 - step))
            e = self.untracked(seq * (step + 1))
            total = total + (a * a).sum() + (b * b.tanh()).sum() + (c * a).sum() + d.sin().sum()
            total = total + (e * e.sigmoid()).sum()
        stats = (self.bn1.running_mean, self.bn1.running_var, self.bn1.num_batches_tracked,
                 self.bn2.running_mean, self.bn2.running_var,
                 self.cumulative.running_mean, self.cumulative.running_var,
                 self.cumulative.num_batches_tracked, self.plain.running_var)
        return total, b, stats, self.untracked.running_mean is None
