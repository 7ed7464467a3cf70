# printf-style string formatting as published model code writes names and log lines:
# a DenseNet-style block deriving from nn.ModuleDict that names its layers with
# self.add_module("denselayer%d" % (i + 1), ...), "%s" / "%d" / "%.2f" / "%5.1f%%"
# labels, %(key)s with a dict, and the labels printed in forward.
import torch
import torch.nn as nn


class DenseBlock(nn.ModuleDict):
    def __init__(self, num_layers, num_input_features, growth_rate):
        super(DenseBlock, self).__init__()
        for i in range(num_layers):
            layer = nn.Linear(num_input_features + i * growth_rate, growth_rate)
            self.add_module("denselayer%d" % (i + 1), layer)

    def forward(self, init_features):
        features = [init_features]
        for name, layer in self.items():
            new_features = torch.relu(layer(torch.cat(features, 1)))
            features.append(new_features)
        return torch.cat(features, 1)


class Net(nn.Module):
    def __init__(self, growth=3, layers=2):
        super().__init__()
        self.block = DenseBlock(layers, 4, growth)
        self.add_module("head", nn.Linear(4 + layers * growth, 2))
        n_params = sum(p.numel() for p in self.parameters())
        self.summary = "%s: %d layers, %.2fK params, %5.1f%% dense" % (
            type(self).__name__, layers, n_params / 1e3, 100.0)
        self.tag = "%(name)s-%(rev)03d" % {"name": "net", "rev": 7}
        self.names = ["%-12s|" % k for k in self.block.keys()]

    def forward(self, x):
        print(self.summary, self.tag, self.names)
        return self.head(self.block(x))
