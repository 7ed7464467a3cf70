import torch


# In-place on a view of a leaf that requires grad is PyTorch's error.
def leaf_view(x):
    x[0].add_(1)
    return x
