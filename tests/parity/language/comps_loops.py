# Comprehensions whose length is known only when the graph runs, each lowered to one
# prim::Loop appending to a list as torch.jit.script lowers it (its structure is
# compared with torch.jit.script's): over range(n) of a run-time int, over a tensor's
# rows, over a list filled at run time.
import torch
from torch import Tensor


def comps_loops(x: Tensor, n: int) -> Tensor:
    scaled = [x * float(i + 1) for i in range(n)]
    rows = [row * 2.0 for row in x]
    doubled = [r + 1.0 for r in rows]
    return torch.stack(doubled).sum(0) + torch.cat(scaled).sum()
