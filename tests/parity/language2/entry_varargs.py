# An entry whose forward takes `*args` and `**kwargs` besides its inputs, as wrappers and
# library blocks write it (`def forward(self, x, *args, scale=1.0, **kwargs)`): they are
# not inputs, so a caller of forward(x, scale=...) leaves them empty in every route;
# the parse route reads len(args) and kwargs.get at conversion time.
import torch
import torch.nn as nn


class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x, *args, scale: float = 1.0, **kwargs):
        if kwargs.get("skip", False) or len(args) > 0:
            return x
        return self.fc(x) * scale
