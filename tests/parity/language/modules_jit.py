# TorchScript's spellings as PyTorch eager accepts them: a torch.jit.ScriptModule with
# a @torch.jit.script_method forward, @torch.jit.export and @torch.jit.ignore methods,
# and torch.jit.annotate(T, v) (the value v; the type is for the compiler).
from typing import List

import torch
import torch.nn as nn


class Scaler(torch.jit.ScriptModule):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    @torch.jit.script_method
    def forward(self, x):
        ys = torch.jit.annotate(List[torch.Tensor], [self.lin(x), x.sum(1, keepdim=True)])
        scale = torch.jit.annotate(float, 0.5)
        return self.helper(ys[0]) * scale + ys[1]

    @torch.jit.export
    def helper(self, y):
        return y * 2.0 + self.bump(y)

    @torch.jit.ignore
    def bump(self, y):
        return torch.ones_like(y)
