import torch


def f(x):
    scales = iter((2.0, 3.0, 4.0))
    if bool(x.sum() > 0):
        x = x * next(scales)
    return x * next(scales)
