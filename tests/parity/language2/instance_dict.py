# minGPT's CfgNode-style config object: `self.__dict__.update(kwargs)`, vars(obj) and
# obj.__dict__[k] to read it, a setattr loop over keyword arguments, and a module that
# reads its configuration from such an object; @staticmethod helpers called through
# self and through the class.
import torch
import torch.nn as nn


class CfgNode:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    def merge_from_dict(self, d):
        self.__dict__.update(d)

    def to_dict(self):
        return {k: v for k, v in vars(self).items()}


class Options:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)


class Net(nn.Module):
    @staticmethod
    def get_default_config():
        return CfgNode(n_embd=8, n_layer=2, dropout=0.0)

    @staticmethod
    def scaled(x, s=1.0):
        return x * s

    def __init__(self):
        super().__init__()
        config = self.get_default_config()
        config.merge_from_dict({"n_layer": 3, "bias": True})
        config.__dict__["n_head"] = 2
        opts = Options(scale=0.5, name="opts")
        self.scale = opts.scale
        self.keys = sorted(vars(config).keys())
        self.settings = config.to_dict()
        self.n_head = config.__dict__["n_head"]
        self.has_bias = "bias" in config.__dict__
        self.layers = nn.ModuleList(
            nn.Linear(config.n_embd, config.n_embd, bias=config.bias) for _ in range(config.n_layer))
        self.n_layer = self.settings["n_layer"]
        self.own = [k for k in self.__dict__ if not k.startswith("_")]

    def forward(self, x):
        for layer in self.layers:
            x = self.scaled(torch.relu(layer(x)), self.scale)
        x = Net.scaled(x, s=2.0)
        print(self.keys, self.own)
        return x, self.n_layer, self.n_head, self.has_bias
