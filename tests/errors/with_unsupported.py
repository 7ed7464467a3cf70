import torch


def f(x):
    with open("log.txt") as log:
        y = x + 1
    return y
