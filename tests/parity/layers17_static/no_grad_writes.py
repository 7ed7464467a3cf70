# In-place writes under torch.no_grad() into entry inputs that require grad (PyTorch
# allows them, as an optimizer's step does): a method write, a write through a view and
# one in a @torch.no_grad() function; a value computed under no_grad has no gradient,
# while later uses of the written inputs differentiate into them as leaves.
import torch


@torch.no_grad()
def clip_(t):
    t.clamp_(-0.5, 0.5)


def no_grad_writes(x, w, b):
    with torch.no_grad():
        x.add_(0.5)
        w.mul_(2.0)
        b[0] = 1.0
        scale = (x * w).sum()
    clip_(b)
    y = x * w + b
    return (y * scale).sum() + (y * y).sum(), y, scale
