# Comprehensions and generator expressions over iterables whose length is known only
# when the graph runs (issue 16 item 4): over range(n) of a run-time int, over a
# tensor's rows, over a list filled at run time, with a filter decided per item; and,
# unchanged, over an iterable of known length (unrolled). torch.jit.script refuses
# comprehension filters ("Comprehension ifs are not supported yet"); d2s lowers them to
# a prim::If around the append.
import torch
from torch import Tensor
from typing import List


def comps_runtime(x: Tensor, n: int) -> Tensor:
    scaled = [x * float(i) for i in range(n)]
    rows = [row.sum() for row in x]
    picked = [r for r in rows if bool(r > 0.0)]
    pairs = [x[i] + x[j] for i in range(x.size(0)) for j in range(2)]
    fixed = [x * k for k in (1.0, 2.0)]
    total = torch.stack(fixed).sum(0) + torch.stack(pairs).sum(0)
    if len(scaled) > 0:
        total = total + torch.stack(scaled).sum(0)
    extra = torch.stack([r * 2.0 for r in rows])
    return total + extra.sum() + float(len(picked)) + torch.cat([p.reshape(1) for p in picked] + [x.sum().reshape(1)]).sum()
