# str.split with an empty separator on a label made when the program runs: Python's
# ValueError in every route (the parse route raises it from aten::split.str).
import torch


def split_empty_separator(x):
    label = f"{int(x.sum().item() > 0)}_a"
    sep = label.replace(label, "")
    return x * len(label.split(sep))
