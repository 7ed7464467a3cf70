# An f-string field holding a 0-d tensor formats its item (Tensor.__format__).
import torch


def fstring_tensor(x):
    loss = (x * x).mean()
    count = (x > 0).sum()
    print(f"loss {loss}")
    print(f"loss {loss:.4f} positive {count} any {(x > 0).any()}")
    print(f"{loss!r} and {x.sum()!s}")
    return loss
