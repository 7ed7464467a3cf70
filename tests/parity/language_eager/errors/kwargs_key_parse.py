# A key of `**kwargs` chosen when the graph runs: the parse route reads kwargs at
# conversion time, so it refuses it with the modes that run it.
import torch


def pick(x, **kwargs):
    key = "a" if x.sum() > 0 else "b"
    return x * kwargs[key]


def kwargs_key_parse(x):
    return pick(x, a=2.0, b=3.0)
