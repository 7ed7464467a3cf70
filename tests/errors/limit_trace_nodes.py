import torch


def f(x):
    for i in range(100):
        x = x + 1
    return x
