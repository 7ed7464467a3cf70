import torch


def f(x):
    assert x.shape[0] == 5, "need 5 rows"
    return x
