# list.remove of an item the list does not hold: Python's ValueError in every route.
import torch


def list_remove_missing(x):
    sizes = [x.size(0), x.size(1)]
    sizes.remove(7)
    return x * len(sizes)
