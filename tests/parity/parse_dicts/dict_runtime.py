# A Dict[str, Tensor] built and changed while the graph runs (issue 16 item 4): the
# parse route makes it with prim::DictConstruct, adds an entry in a branch on a
# tensor's value (aten::_set_item, not an If output: the one dict changes), walks
# d.items() as one prim::Loop and reads len(d) and `"c" in d` when the graph runs,
# as torch.jit.script's graph does (parity_structure_parse_dicts).
import torch
from torch import Tensor
from typing import Tuple


def dict_runtime(x: Tensor) -> Tuple[Tensor, int, bool]:
    d = {"a": x * 2, "b": x + 1}
    if bool(x.sum() > 0):
        d["c"] = x.relu()
    out = d["a"]
    for k, v in d.items():
        out = out + v
    return out, len(d), "c" in d
