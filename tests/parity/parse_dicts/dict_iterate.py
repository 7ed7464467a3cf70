# Iterating over a dict of run-time contents (issue 16 item 4): comprehensions over
# d.items(), d.values() and the dict itself, sum() and enumerate over its values, each
# a prim::Loop over the list aten::items / aten::values / aten::keys gives when the
# graph runs.
import torch
from torch import Tensor
from typing import Dict, Tuple


def dict_iterate(x: Tensor, n: int) -> Tuple[Tensor, Tensor, int, Tensor]:
    feats: Dict[str, Tensor] = {"base": x}
    for i in range(n):
        feats["f" + str(i)] = torch.tanh(x * float(i + 1))
    scaled = [v * 2.0 for k, v in feats.items() if k != "base"]
    keys = [k + "!" for k in feats]
    print(keys)
    total = sum([v.sum() for v in feats.values()])
    acc = torch.zeros_like(x)
    for j, v in enumerate(feats.values()):
        acc = acc + v * float(j)
    return torch.stack(scaled).sum(0) if len(scaled) > 0 else x, acc, len(keys), total
