import torch


def g(x, n: int):
    return g(x, n + 1)


def f(x):
    return g(x, 0)
