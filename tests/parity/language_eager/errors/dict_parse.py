# The parse route has no dict values yet: a dict literal is refused with the modes
# that run it.
import torch


def dict_parse(x):
    feats = {"a": x, "b": x * 2}
    return feats["a"] + feats["b"]
