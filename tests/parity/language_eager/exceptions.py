# try/except/else/finally with untaken raises and handled errors, raise ... from,
# `except (A, B) as e`, a caught IndexError from a list, and del of a name, a list
# item, a dict entry and an attribute.
import torch
import torch.nn as nn


def check_dim(x, dim):
    if x.dim() != dim:
        raise ValueError(f"expected {dim} dims, got {x.dim()}")
    return x


def safe_get(items, i, default):
    try:
        return items[i]
    except IndexError:
        return default


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.tmp = 5
        del self.tmp

    def forward(self, x):
        log = []
        try:
            y = check_dim(x, 2)
        except ValueError as e:
            raise RuntimeError("bad input") from e
        else:
            log.append("else")
        finally:
            log.append("finally")
        try:
            check_dim(x, 3)
        except (TypeError, ValueError) as e:
            log.append(str(e))
        try:
            {"a": 1}["b"]
        except KeyError as e:
            log.append(repr(e))
        except Exception:
            log.append("never")
        items = [1, 2, 3]
        del items[0]
        d = {"k": 1, "j": 2}
        del d["k"]
        tmp = 4
        del tmp
        print(log, safe_get(items, 5, -1), items, d, hasattr(self, "tmp"))
        return self.fc(y) * safe_get(items, 1, 0)
