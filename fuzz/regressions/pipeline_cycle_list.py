# Containers that hold themselves (a list appended to itself, a dict that is one of
# its own values): cycles the cycle collector (core/tensor/gc.h) must free after the run.
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    items = [x]
    items.append(items)
    d = {"x": x}
    d["self"] = d
    return items[0] + d["x"]
