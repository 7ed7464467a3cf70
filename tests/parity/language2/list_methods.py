# The list methods that compare or reorder items, as TorchScript has them, on lists of
# numbers and strings built in forward: index, count, remove, reverse, sort (with
# reverse=), clear, and sorted(); sizes read from the input so that the items are
# known only when the graph runs.
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
    print(sizes, order, names, first, repeats)
    return x * (first + repeats + label + len(sizes) + scales[0]) + order[0]
