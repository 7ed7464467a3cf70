import torch


# clamp_, zero_, fill_ and copy_: overwrites, whose old value gets no gradient.
def clamp_fill(w, x):
    y = w * x
    y.clamp_(-1.0, 1.0)
    z = y * 1
    z.zero_()
    z += y
    u = w * 2
    u.fill_(3.0)
    v = x * 1
    v.copy_(w * w)
    return (z + u + v).sum()
