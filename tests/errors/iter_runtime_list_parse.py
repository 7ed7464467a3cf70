import torch


def f(x):
    rows = [r * 2.0 for r in x]
    it = iter(rows)
    first = next(it)
    return first + next(it)
