# list.index of an item the list does not hold, known only when the graph runs:
# Python's ValueError in every route (the parse route's aten::index raises it).
import torch


def list_index_missing(x):
    sizes = [x.size(0), x.size(1)]
    return x * sizes.index(x.size(0) + x.size(1))
