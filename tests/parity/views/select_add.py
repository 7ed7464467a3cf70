import torch


def select_add(x, y):
    h = x * 2
    h[0].add_(y)
    return (h * h).sum(), h
