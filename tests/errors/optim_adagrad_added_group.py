import torch


def f(x):
    w = torch.ones(3, requires_grad=True)
    b = torch.ones(1, requires_grad=True)
    optimizer = torch.optim.Adagrad([w], lr=0.1)
    optimizer.add_param_group({"params": [b]})
    (w.sum() * b).sum().backward()
    optimizer.step()
    return x
