# A namedtuple made in forward without one of its fields: Python's TypeError, in every
# route (the parse route builds the namedtuple at conversion time).
from collections import namedtuple

import torch

Pair = namedtuple("Pair", ["first", "second"])


def namedtuple_missing_field(x):
    p = Pair(x)
    return p.first
