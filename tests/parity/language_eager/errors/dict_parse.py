# The parse route lowers dicts (TorchScript's Dict[K, V]) but not a dict comprehension,
# which torch.jit.script refuses too: refused with the modes that run it.
import torch


def dict_parse(x):
    feats = {k: x * (i + 1) for i, k in enumerate(["a", "b"])}
    return feats["a"] + feats["b"]
