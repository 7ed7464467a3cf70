import torch


def f(x):
    print("rows: %d, cols: %d" % (x.shape[0],))
    return x * 2
