import torch


# mul_ and relu_ on computed values: the derivative of each is taken on the value
# before the write.
def mul_relu(w, x):
    h = x * w
    h += w
    h.mul_(h.detach() + 1)
    h.relu_()
    out = h.sum()
    return out
