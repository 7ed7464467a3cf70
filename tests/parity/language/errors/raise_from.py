# A raised error ends the run with exit 2 and Python's message, here through
# `raise ... from` inside an except handler, after a finally block ran.
import torch


def check(x):
    try:
        if x.dim() != 3:
            raise ValueError("expected a 3-d input")
    except ValueError as e:
        raise RuntimeError(f"bad input: {e}") from e
    finally:
        print("checked")
    return x


def raise_from(x):
    return check(x) * 2
