import torch


# A write into the base shows in a view taken before it (unsqueeze and transpose).
def write_base_read_view(x, y):
    h = x + 0
    u = h.unsqueeze(0).transpose(1, 2)
    h.mul_(y)
    return (u * u).sum() + h.sum(), u
