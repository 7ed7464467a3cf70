# The dict methods model code uses, on a dict of run-time values: get with and without
# a default, pop with and without one, update, copy (a new dict: writes into it do not
# reach the first), keys/values, clear, `del d[k]`, dict(...) and `{**d}`, and printing
# (a dict, a list of its keys).
import torch
from torch import Tensor
from typing import Tuple


def dict_methods(x: Tensor, k: int) -> Tuple[Tensor, int, int, int, Tensor]:
    d = {"w": x * 3.0, "v": x - 1.0}
    e = dict(u=x.sum() * x, w=x + 0.5)
    d.update(e)
    f = d.copy()
    f["z"] = x * 0.0
    g = {**d}
    del g["u"]
    got = d.get("w", x) + d.get("missing", x * 2.0)
    maybe = d.get("nothing")
    if maybe is not None:
        got = got + maybe
    popped = d.pop("v")
    fallback = d.pop("v", x * 5.0)
    sizes = dict(a=k, b=k * 2)
    sizes["c"] = len(f)
    print(sizes, len(g))
    n = 0
    for s in sizes.values():
        n = n + s
    names = list(f.keys())
    print(names)
    h = {"q": k}
    h.clear()
    return got + popped + fallback, len(names), n, len(h), torch.stack(list(d.values())).sum(0)
