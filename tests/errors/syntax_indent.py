import torch


def f(x):
    y = x + 1
      return y
