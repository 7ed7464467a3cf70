# A keyword that the caller did not give, read from `**kwargs` with []: KeyError in
# every route (the parse route knows the keys at conversion time).
import torch


def scaled(x, **kwargs):
    return x * kwargs["scale"]


def kwargs_missing_key(x):
    return scaled(x, shift=1.0)
