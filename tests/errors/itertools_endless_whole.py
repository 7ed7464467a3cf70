import itertools

import torch


def f(x):
    ids = list(itertools.count(1))
    return x * len(ids)
