import torch
import torch.nn as nn


def f(x):
    logits = torch.zeros(2, 3, requires_grad=True)
    target = torch.tensor([0.0, 2.0])
    return nn.CrossEntropyLoss()(logits, target)
