import torch
import torch.nn.functional as F


def f(x):
    log_probs = torch.randn(4, 2, 3).log_softmax(2)
    targets = torch.tensor([[1, 2], [2, 2]])
    return F.ctc_loss(log_probs, targets, [4, 5], [2, 2])
