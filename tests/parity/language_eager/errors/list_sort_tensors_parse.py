# Sorting a list of tensors: Python compares one-element tensors with `<`; the parse
# route's lists compare numbers, bools and strings only, so it refuses it with the
# modes that run it.
import torch


def list_sort_tensors_parse(x):
    parts = [x.sum(), x.max(), x.min()]
    parts.sort()
    return parts[0] + parts[2]
