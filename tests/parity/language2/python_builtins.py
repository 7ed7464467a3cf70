# is / is not, in / not in, enumerate, zip, reversed, sorted, min/max/sum/abs/round/
# any/all on Python values, range with a step, step slices of lists, tuples and
# tensors, `...` in subscripts and type hints, nested tuple unpacking, list methods
# and f-string format specs.
from typing import Callable, List, Optional

import torch
import torch.nn as nn


def run(fn: Callable[..., torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    return fn(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.extra: Optional[nn.Module] = None

    def pair(self, x):
        return x, (x + 1, x * 2)

    def forward(self, x):
        vals = [3, -1, 4, -1, 5, 9]
        evens = list(range(0, 10, 3))
        back = list(range(8, 0, -2))
        stats = (min(vals), max(vals), sum(vals), abs(-2.5), round(2.675, 2), round(7.5))
        checks = (any(v > 8 for v in vals), all(v > -2 for v in vals), self.extra is None,
                  self.fc is not None, 4 in vals, 7 not in vals)
        rev = list(reversed(vals))
        srt = sorted(vals, reverse=True)
        zipped = [a * b for a, b in zip(vals, evens)]
        lst = [1, 2]
        lst.append(3)
        lst.extend([4, 5])
        lst.insert(0, 0)
        last = lst.pop()
        first = lst.pop(0)
        lst += [7]
        lst.reverse()
        pos = lst.index(2)
        rep = [0] * 3
        out, (h, c) = self.pair(x)
        y = self.fc(out[..., ::2].repeat(1, 2)) + h[:, ::2].repeat(1, 2) + c[..., 1:].sum()
        for i, (a, b) in enumerate([(1, 2), (3, 4)]):
            y = y + a * b * i
        print(vals[::2], vals[::-1], tuple(vals)[1::2], evens, back, stats, checks)
        print(rev, srt, zipped, lst, last, first, pos, rep)
        print(f"{stats[3]:.4f} {len(vals):3d} {y.mean():.3f} {vals[0]:>4}|{0.5:8.2e}")
        return run(lambda t: t * 2, y), x[..., 0], x[:, ::2]
