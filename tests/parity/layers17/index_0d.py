# A 0-d integer tensor as an index is a Python int (PyTorch eager's applySlicing calls
# its __index__): it drops its dim where it stands, so a tensor index after a slice keeps
# its place (x[idx[0], :, [4, 3]] is [4, 2], not [2, 4] as two advanced indices would
# give); also with an int, after a slice, in a write, and from argmax.
import torch


def index_0d(x, idx):
    t = 1
    a = x[idx[0], :, t]
    b = x[idx[0], :, [4, 3]]
    c = x[:, idx[1], [0, 2]]
    k = torch.argmax(idx)
    d = x[k, 1:, idx[1]]
    y = x * 1.0
    y[idx[0], :, t] = 5.0
    y[idx[1], 0, [1, 2]] = -1.0
    total = (a * a).sum() + b.sum() + (c * 2).sum() + d.tanh().sum() + (y * y).sum()
    return total, a, b, c, d, y
