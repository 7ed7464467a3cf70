import torch


def f(x):
    limits = iter((1.0, 2.0, 3.0))
    for limit in limits:
        if bool(x.sum() > limit):
            break
    return x * next(limits)
