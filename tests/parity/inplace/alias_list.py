import torch


# A write is seen through another name and through a list and a tuple that hold the
# tensor.
def alias_list(w, x):
    y = w * x
    a = y
    items = [y, x]
    pair = (y, 1)
    a += 1
    items[0].mul_(2)
    pair[0].sub_(w)
    return y.sum(), items[0], pair[0]
