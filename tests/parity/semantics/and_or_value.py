# `a and b` / `a or b` give one of their operands (Python's rule), not a bool.
import torch


def and_or_value(x, y, n: int):
    t = x.sum() > 0 and y
    u = x.sum() < 0 or y * 2
    k = n and 7
    m = n or 5
    return t, u, k, m
