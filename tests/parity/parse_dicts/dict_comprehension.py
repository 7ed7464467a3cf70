# Dict comprehensions, lowered as torch.jit.script 1.13 lowers them: an empty
# prim::DictConstruct, then aten::_set_item per item — unrolled over a list written out
# (with enumerate and an `if` filter known at conversion time), and in a prim::Loop over
# a range whose length is known only when the graph runs (keys made by str()), with a
# filter decided on a tensor's value there. torch.jit.script refuses the `if` of a
# comprehension; dict_comprehension_script.py is the one compared with its graph.
import torch
from torch import Tensor
from typing import Tuple


def dict_comprehension(x: Tensor) -> Tuple[Tensor, int]:
    scaled = {k: x * (i + 1) for i, k in enumerate(["a", "b", "c"]) if k != "b"}
    n = x.size(0)
    rows = {str(i): x[i] for i in range(n) if bool(x[i].sum() > 0)}
    out = scaled["a"] + scaled["c"]
    for k, v in rows.items():
        out = out + v
    return out, len(rows)
