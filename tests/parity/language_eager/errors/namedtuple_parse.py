# The parse route cannot make a namedtuple in converted code (it reads those __init__
# keeps): refused naming the class and the line, with the modes that run it.
from collections import namedtuple

import torch

Pair = namedtuple("Pair", "first second")


def namedtuple_parse(x):
    p = Pair(x, x * 2)
    return p.first + p.second
