# Classes deriving from nn.ModuleDict, as published code writes heads and feature
# blocks: super().__init__() then self[k] = ... and self.update(...), a forward that
# iterates the dict's items, super().__init__(modules) with a dict, and isinstance.
import torch
import torch.nn as nn


class Heads(nn.ModuleDict):
    def __init__(self, dim, sizes):
        super().__init__()
        for name, n in sizes.items():
            self[name] = nn.Linear(dim, n)
        self.update({"score": nn.Linear(dim, 1)})

    def forward(self, x):
        return tuple(head(x) for head in self.values())


class DenseBlock(nn.ModuleDict):
    def __init__(self, layers, dim):
        super(DenseBlock, self).__init__({f"layer{i + 1}": nn.Linear(dim * (i + 1), dim)
                                          for i in range(layers)})

    def forward(self, x):
        features = [x]
        for name, layer in self.items():
            features.append(torch.relu(layer(torch.cat(features, 1))))
        return torch.cat(features, 1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = DenseBlock(2, 4)
        self.heads = Heads(12, {"cls": 3, "box": 4})
        self.is_dict = isinstance(self.heads, nn.ModuleDict)
        self.names = list(self.heads.keys()) + list(self.block)

    def forward(self, x):
        print(self.names)
        cls, box, score = self.heads(self.block(x))
        return (cls, box, score, self.heads["box"](x.repeat(1, 3)), len(self.heads), "box" in self.heads,
                self.is_dict)
