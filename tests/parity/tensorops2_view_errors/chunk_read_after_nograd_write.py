# A piece of chunk written under no_grad, read afterwards in grad mode: PyTorch's error
# for the piece, whose base's version moved since the piece was taken.
import torch


def chunk_read_after_nograd_write(x):
    y = x + 1.0
    c, d = y.chunk(2, dim=1)
    with torch.no_grad():
        c.add_(1.0)
    return (y * y).sum() + d.sum()
