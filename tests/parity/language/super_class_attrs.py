# super(Cls, self).__init__() and super(Cls, self).method(), class attributes
# (`expansion = 4`, `scale: float = 0.5`) read through self and through the class.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Base(nn.Module):
    expansion = 4
    scale: float = 0.5

    def __init__(self, n):
        super(Base, self).__init__()
        self.fc = nn.Linear(n, n * self.expansion)

    def act(self, x):
        return F.relu(x) * self.scale


class Net(Base):
    expansion: int = 2

    def __init__(self):
        super(Net, self).__init__(3)
        self.out = nn.Linear(3 * Net.expansion, 2)

    def act(self, x):
        return super(Net, self).act(x) + Base.scale

    def forward(self, x):
        h = self.act(self.fc(x))
        return self.out(h) * self.expansion, super().act(h).sum()
