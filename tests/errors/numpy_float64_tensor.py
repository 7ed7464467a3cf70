import numpy as np
import torch


def f(x):
    w = torch.from_numpy(np.eye(3))
    return x @ w
