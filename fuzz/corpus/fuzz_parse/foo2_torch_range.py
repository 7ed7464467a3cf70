# The textbook's foo1/foo2 exactly as printed (plus their imports). torch.range needs an
# `end`: `torch.range(10)` fails in PyTorch, and d2s must say so at the call.
import torch
from torch import Tensor

@torch.jit.script
def foo1(x: Tensor, y: Tensor, z: Tensor) -> Tensor:
  if x < y:
    s = x + y
  else:
    s = torch.square(y)
  return s

@torch.jit.script
def foo2(s: Tensor) -> Tensor:
  for i in torch.range(10):
    s += i
  return s
