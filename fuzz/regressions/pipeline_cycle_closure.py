# A nested function that calls itself: its closure holds the frame that holds it,
# a reference cycle the cycle collector (core/tensor/gc.h) must free after the run.
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    def step(y, n: int):
        if n == 0:
            return y
        return step(y * 2, n - 1)

    return step(x, 3).argmax()
