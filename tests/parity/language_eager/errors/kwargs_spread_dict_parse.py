# `**d` of a dict made when the graph runs: its keys are not known at conversion time,
# where the parse route binds keywords; eager and trace run it.
import torch


def scaled(x, scale=1.0):
    return x * scale


def kwargs_spread_dict_parse(x):
    opts = {"scale": x.sum()}
    return scaled(x, **opts)
