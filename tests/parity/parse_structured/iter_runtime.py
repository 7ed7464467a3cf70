# enumerate/zip/sum/any/all over iterables whose length is known only when the graph
# runs (a tensor's rows, a list filled by append, range(n) of an int input): the parse
# route lowers each to a prim::Loop instead of unrolling (issue 16 item 4). The input
# sets differ in length, so an unrolled graph could not pass.
import torch
from torch import Tensor
from typing import List


def iter_runtime(x: Tensor, n: int) -> Tensor:
    acc = torch.zeros(x.size(1))
    for i, row in enumerate(x):
        acc = acc + row * float(i)
    for i, row in enumerate(x, 2):
        acc = acc + row * float(i)
    for a, b in zip(x, x * 2.0):
        acc = acc + a * b
    ws: List[float] = []
    for k in range(n):
        ws.append(float(k) + 0.5)
    for w, row in zip(ws, x):
        acc = acc + row * w
    for j, (w, row) in enumerate(zip(ws, [acc, acc * 0.5])):
        acc = acc + row * w * j
    pairs = [i * w for i, w in enumerate(ws)]
    flags = [bool(r.sum() > 0) for r in x]
    total = sum(ws) + sum([i * 2 for i in range(n)]) + sum(pairs, 1.0)
    s = sum(x)
    t = sum(r * r for r in x)
    big = any(r.sum() > 1.0 for r in x)
    return acc * total + s + t + float(any(flags)) + float(all(flags)) + float(big)
