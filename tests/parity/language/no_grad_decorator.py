# @torch.no_grad() and @torch.inference_mode() as decorators on methods and
# functions, as published code writes them (a weight renorm, an EMA-style helper, a
# probe): every route accepts them and runs the body (eager mode without recording
# gradients, as PyTorch does).
import torch
import torch.nn as nn


@torch.no_grad()
def renorm_(weight, max_norm):
    norms = weight.norm(dim=1, keepdim=True)
    scaled = weight.clone().mul_(torch.clamp(max_norm / norms, max=1.0))
    return scaled.sum() + norms.sum()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)

    @torch.no_grad()
    def ema(self, x):
        return self.fc(x) * 0.5

    @torch.inference_mode()
    def probe(self, x):
        return self.fc(x).sum()

    def forward(self, x):
        before = renorm_(self.fc.weight, 0.5)
        y = self.fc(x)
        z = self.ema(x)
        return y, z, self.probe(x), before
