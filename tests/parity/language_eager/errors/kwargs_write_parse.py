# The parse route keeps the keywords a `**kwargs` gathered at conversion time; a write
# into them is refused with the modes that run it (eager and trace run it).
import torch


def scaled(x, **kwargs):
    kwargs["scale"] = 2.0
    return x * kwargs["scale"]


def kwargs_write_parse(x):
    return scaled(x, scale=3.0)
