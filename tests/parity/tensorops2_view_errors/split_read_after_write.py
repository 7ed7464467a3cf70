# A piece of split read in grad mode after an in-place write into its base (that
# requires grad): PyTorch regenerates no history for the pieces of a multi-view op and
# raises at the read.
import torch


def split_read_after_write(x):
    y = x * 2.0
    a, b = y.split(2, dim=0)
    y.mul_(3.0)
    return (a * b).sum()
