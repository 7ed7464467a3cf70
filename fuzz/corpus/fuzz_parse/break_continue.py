# A for loop that skips rows (`continue`) and stops early (`break`) on tensor values: a
# trace unrolls only the iterations that ran and drops the tests; the parsed prim::Loop
# keeps them, with the break folded into its continue condition.
import torch
from torch import Tensor


def break_continue(x: Tensor, limit: float):
    total = torch.zeros(x.shape[1])
    count = 0
    for i in range(x.shape[0]):
        row = x[i]
        if row.sum() < 0:
            continue
        total = total + row.clamp(max=2.0)
        count += 1
        if total.sum() > limit:
            break
    return total, count
