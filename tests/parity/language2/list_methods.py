# The list methods that compare or reorder items, as TorchScript has them, on lists of
# numbers and strings built in forward: index, count, remove, reverse, sort (with
# reverse=), clear, sorted(), min/max of one list and `[0] * n`; sizes read from the input so
# that the items are known only when the graph runs.
import torch
from torch import Tensor
from typing import List


def list_methods(x: Tensor) -> Tensor:
    sizes: List[int] = []
    for d in range(x.dim()):
        sizes.append(x.size(d))
    sizes.append(x.size(0))
    first = sizes.index(x.size(0))
    repeats = sizes.count(x.size(0))
    order = sorted(sizes, reverse=True)
    sizes.sort()
    sizes.reverse()
    sizes.remove(x.size(-1))
    names = ["b", "c", "a"]
    names.sort()
    label = names.index("c")
    scales = [float(s) / 2 for s in order]
    scales.clear()
    scales.append(0.5)
    zeros = [0] * x.size(0)  # a length known only when the graph runs: aten::mul.left_t
    sizes += zeros
    print(sizes, order, names, first, repeats, max(sizes), min(order))
    return x * (first + repeats + label + len(sizes) + scales[0] + min(scales)) + max(order)
