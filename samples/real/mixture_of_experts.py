# A soft mixture-of-experts layer as research code writes it: the experts in an
# nn.ModuleList built by a list comprehension, a gating network, the experts' outputs
# stacked by torch.stack over a comprehension, a load-balancing term summed with a
# generator expression over range(len(self.experts)), and argument checks that raise (never taken here).
import math
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


class Expert(nn.Module):
    def __init__(self, dim: int, hidden: int, dropout: float = 0.0):
        super(Expert, self).__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))
        self.dropout = dropout

    def forward(self, x):
        return F.dropout(self.net(x), p=self.dropout, training=self.training)


class MoELayer(nn.Module):
    def __init__(self, dim=8, num_experts=4, hidden=16, temperature=1.0):
        super(MoELayer, self).__init__()
        if num_experts < 1:
            raise ValueError(f"num_experts must be positive, got {num_experts}")
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])
        self.gate = nn.Linear(dim, num_experts)
        self.temperature = temperature
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, x: torch.Tensor):
        if x.dim() != 2:
            raise RuntimeError("expected a [batch, dim] input")
        weights = F.softmax(self.gate(x) / self.temperature, dim=-1)
        outputs = torch.stack([expert(x) for expert in self.experts], dim=1)
        mixed = (weights.unsqueeze(-1) * outputs).sum(dim=1)
        importance = weights.mean(dim=0)
        balance = sum((importance[i] - 1.0 / len(self.experts)) ** 2
                      for i in range(len(self.experts)))
        per_expert: List[torch.Tensor] = [outputs[:, i].norm() * self.scale
                                          for i in range(len(self.experts))]
        return mixed + x, balance, torch.stack(per_expert)
