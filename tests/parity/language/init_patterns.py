# Initialisation as published model files write it: minGPT's self.apply(self._init_weights)
# with isinstance branches (normal_(std=0.02) on Linear and Embedding weights, zeros_ on
# biases, LayerNorm to ones and zeros), torchvision's `for m in self.modules()` loop
# (kaiming_normal_(mode="fan_out", nonlinearity="relu") on Conv2d, constant_ on batch
# norm), a scaled projection re-initialised by name (minGPT's c_proj), and the other
# spellings of the module: torch.nn.init.X, `from torch.nn import init`,
# `import torch.nn.init as tinit`.
import math

import torch
import torch.nn as nn
import torch.nn.init as tinit
from torch.nn import init


class Block(nn.Module):
    def __init__(self, n_embd=8, vocab=13, n_layer=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, n_embd)
        self.ln = nn.LayerNorm(n_embd)
        self.fc = nn.Linear(n_embd, 2 * n_embd)
        self.c_proj = nn.Linear(2 * n_embd, n_embd)
        self.head = nn.Linear(n_embd, vocab, bias=False)
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
        elif isinstance(module, nn.LayerNorm):
            torch.nn.init.zeros_(module.bias)
            torch.nn.init.ones_(module.weight)

    def forward(self, idx):
        x = self.ln(self.wte(idx))
        x = x + self.c_proj(torch.relu(self.fc(x)))
        return self.head(x)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 3)
        self.gate = nn.Parameter(torch.empty(3, 3))
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.Linear):
                init.xavier_uniform_(m.weight, gain=init.calculate_gain("tanh"))
                tinit.uniform_(m.bias, -0.1, 0.1)
        tinit.orthogonal_(self.gate)

    def forward(self, x):
        h = torch.relu(self.bn(self.conv(x)))
        return torch.tanh(self.fc(h.mean(dim=(2, 3)))) @ self.gate


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.cnn = ConvNet()
        self.eval()

    def forward(self, idx, img):
        return self.block(idx), self.cnn(img)
