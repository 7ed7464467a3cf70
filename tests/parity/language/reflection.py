# Module reflection as model code uses it: type(m).__name__, m.__class__.__name__,
# isinstance on nn classes, user classes and nn.Sequential subclasses, hasattr,
# getattr (also with a default) and setattr.
import torch
import torch.nn as nn


class Stack(nn.Sequential):
    def __init__(self):
        super().__init__(nn.Linear(3, 3), nn.Tanh())


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc = nn.Linear(3, 3)
        self.act = nn.Tanh()
        self.stack = Stack()
        self.kind = type(self.act).__name__
        self.has = hasattr(self, "fc") and not hasattr(self, "nope")
        setattr(self, "scale", 2.0)

    def forward(self, x):
        y = getattr(self, "fc")(x) * self.scale + getattr(self, "shift", 1.0)
        if isinstance(self.act, nn.Tanh):
            y = self.act(y)
        if isinstance(self.stack, nn.Sequential) and isinstance(self.stack, Stack):
            y = self.stack(y)
        if isinstance(self.fc, nn.ReLU):
            y = y * 100.0
        print(type(self).__name__, self.fc.__class__.__name__, self.kind)
        return y, self.has, isinstance(y, torch.Tensor), hasattr(self, "stack")
