# nn.BatchNorm1d/2d in eval mode: the running statistics normalise (set in __init__ as
# a trained model has them) and stay unchanged; a BatchNorm2d without running
# statistics uses the batch's even in eval; F.batch_norm with training=False.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(3)
        self.bn1 = nn.BatchNorm1d(4, eps=0.01)
        self.untracked = nn.BatchNorm2d(3, track_running_stats=False)
        self.bn.running_mean = torch.tensor([0.5, -1.0, 2.0])
        self.bn.running_var = torch.tensor([0.25, 4.0, 1.5])
        self.bn1.running_mean = torch.linspace(-1, 1, 4)
        self.bn1.running_var = torch.linspace(0.5, 2, 4)
        with torch.no_grad():
            self.bn.weight.copy_(torch.tensor([1.5, -0.5, 2.0]))
            self.bn.bias.copy_(torch.tensor([0.1, 0.2, -0.3]))
        self.eval()

    def forward(self, img, x):
        a = self.bn(img)
        b = self.bn1(x)
        c = self.untracked(img * 2)
        d = F.batch_norm(x, self.bn1.running_mean, self.bn1.running_var, None, None, False,
                         0.1, 1e-5)
        total = (a * a).sum() + (b * b.tanh()).sum() + (c * c).sum() + d.sum()
        return total, a, b, c, d, self.bn.running_mean, self.bn.num_batches_tracked
