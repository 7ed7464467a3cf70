# `a and b` / `a or b` give one of their operands (Python's rule), not a bool.
import torch


def and_or_value(x, y, n: int):
    t = x.sum() > 0 and y
    u = x.sum() < 0 or y * 2
    k = n and 7
    m = n or 5
    v = (n and x) + 1  # an int or a tensor: the add's overload is chosen per call
    return t, u, k, m, v
