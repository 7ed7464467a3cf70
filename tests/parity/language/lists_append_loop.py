# Lists that change in the parse route (issue 16 item 4): a list filled by append in a
# loop whose trip count is the input's first dimension (known only when the graph
# runs), then stacked and concatenated, as RNN-style code collects its steps.
import torch
from torch import Tensor
from typing import List


def step(h: Tensor, x: Tensor) -> Tensor:
    return torch.tanh(h * 0.5 + x)


def lists_append_loop(x: Tensor) -> Tensor:
    h = torch.zeros(x.size(1))
    outs: List[Tensor] = []
    hs = [h]
    for t in range(x.size(0)):
        h = step(hs[-1], x[t])
        outs.append(h)
        hs.append(h * 2.0)
    firsts = []
    for row in x:
        firsts.append(row[0:1])
    return torch.stack(outs) + torch.cat(hs[1:]).sum() + torch.cat(firsts).sum()
