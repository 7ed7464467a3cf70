# An `if` whose condition is known when the module is converted, as torchvision's
# blocks write them: `if self.downsample is not None:` with the attribute None (the
# arm calls it) or a module, `if self.use_res_connect: return ... else: return ...`,
# `if "aux" in self.heads:`, and a name bound only in the arm that runs. The parse
# route lowers only that arm, as TorchScript's metacompilation does.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, project):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.downsample = nn.Linear(4, 4) if project else None
        self.use_res_connect = not project

    def forward(self, x):
        identity = x
        if self.downsample is not None:
            identity = self.downsample(x)
        if self.use_res_connect:
            return x + self.fc(x) + identity
        else:
            return self.fc(x) * identity


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Block(True)
        self.b = Block(False)
        self.heads = nn.ModuleDict({"main": nn.Linear(4, 2)})
        self.scale = None

    def forward(self, x):
        h = self.b(self.a(x))
        if "aux" in self.heads:
            aux = self.heads["aux"](h)
        else:
            extra = h.mean()
        if self.scale is None:
            factor = 2.0
        else:
            factor = self.scale(h)
        return self.heads["main"](h) * factor + extra
