# The parse route refuses `try` with `except` (a graph has no exception handlers, and
# TorchScript has none either); the error names the construct and the modes that run it.
import torch


def try_except_parse(x):
    try:
        y = x.view(3, 2)
    except RuntimeError:
        y = x
    return y * 2
