# enumerate and zip of run-time length as torch.jit.script accepts them: each `for` is
# one prim::Loop in the parse route as in TorchScript's graph (parity_structure).
import torch
from torch import Tensor
from typing import List


def iter_runtime_script(x: Tensor, n: int) -> Tensor:
    acc = torch.zeros(x.size(1))
    for i, row in enumerate(x):
        acc = acc + row * float(i)
    ws: List[float] = []
    for k in range(n):
        ws.append(float(k) + 0.5)
    for w, row in zip(ws, x):
        acc = acc + row * w
    for j, w in enumerate(ws):
        acc = acc * (w + float(j))
    return acc
