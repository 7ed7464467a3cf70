import torch


def f(x):
    d = {"a": x, "b": x * 2}
    if bool(x.sum() > 100):
        d["c"] = x
    return d["c"]
