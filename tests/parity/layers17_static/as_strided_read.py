# as_strided read in d2s grad's static graph: overlapping windows (gradients add where
# they overlap) and a storage offset, on an input and on a computed tensor.
import torch


def as_strided_read(x):
    w = x.as_strided((4, 3), (2, 1))
    h = torch.tanh(x) * 2.0
    o = torch.as_strided(h, [2, 3], [3, 2], 1)
    return (w * w).sum() + (o * x[:6].reshape(2, 3)).sum(), w, o
