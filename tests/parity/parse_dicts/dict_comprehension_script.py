# Dict comprehensions that torch.jit.script 1.13 compiles too (it has no comprehension
# `if`): its graph and the parse route's have the same loops — one prim::Loop for the
# run-time range, none for the list written out, which both unroll or loop over —
# checked by parity_structure_parse_dicts.
import torch
from torch import Tensor
from typing import Tuple


def dict_comprehension_script(x: Tensor) -> Tuple[Tensor, int]:
    rows = {str(i): x[i] * (i + 1) for i in range(x.size(0))}
    out = rows["0"]
    for k in rows.keys():
        out = out + rows[k]
    return out, len(rows)
