# warnings.warn inside converted code: the parse route's graph has no warnings, so it
# refuses it naming the call and the line, with the modes that run it.
import warnings

import torch


def warnings_parse(x):
    if x.shape[0] > 1:
        warnings.warn("more than one row")
    return x * 2
