import torch


def f(x):
    w_h = x * 2
    return x + W_h
