import torch


def f(x):
    scales = iter([2.0, 3.0])
    a = next(scales)
    return x * a * next(scales)
