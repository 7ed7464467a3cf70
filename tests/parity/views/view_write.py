import torch


def view_write(t, v):
    h = t * 1
    h.view(2, 2, -1)[:, :, 1] = v
    return (h * h).sum(), h
