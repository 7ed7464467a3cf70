# A dict is one value however many names hold it (issue 16 item 4, aliasing): a write
# through a second name, in a helper function (inlined), in a branch and in a loop body
# all reach the same dict, and a list holding the dict sees them too, as in Python and
# TorchScript.
import torch
from torch import Tensor
from typing import Dict, List, Tuple


def add_entry(cache: Dict[str, Tensor], name: str, value: Tensor) -> None:
    cache[name] = value


def dict_alias(x: Tensor, steps: int) -> Tuple[Tensor, int, int]:
    d: Dict[str, Tensor] = {}
    alias = d
    held: List[Dict[str, Tensor]] = [d]
    add_entry(alias, "first", x * 2.0)
    if bool(x.mean() > 0):
        alias["pos"] = x.abs()
    else:
        d["neg"] = -x
    for i in range(steps):
        d["step"] = d["first"] + float(i)
    out = torch.zeros_like(x)
    for name, v in held[0].items():
        out = out + v
    return out, len(held[0]), len(alias)
