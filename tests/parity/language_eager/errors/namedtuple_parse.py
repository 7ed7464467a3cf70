# The parse route cannot make a namedtuple whose field names are not written as literals
# in the namedtuple(...) call (it creates those, and reads those __init__ keeps):
# refused naming the class and the line, with the modes that run it.
from collections import namedtuple

import torch

FIELDS = ["first"] + ["second"]
Pair = namedtuple("Pair", FIELDS)


def namedtuple_parse(x):
    p = Pair(x, x * 2)
    return p.first + p.second
