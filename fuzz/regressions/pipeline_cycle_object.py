# An object that refers to itself and an nn.Module child that points back at its
# parent: reference cycles the cycle collector (core/tensor/gc.h) must free after the run.
import torch
import torch.nn as nn


class Node:
    def __init__(self, value):
        self.me = self
        self.value = value


class Child(nn.Module):
    def __init__(self):
        super().__init__()
        self.owner = [None]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.child = Child()
        self.child.owner[0] = self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        node = Node(x)
        return node.me.value + 1
