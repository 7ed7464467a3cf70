# itertools' finite basics as model code uses them to lay out layers: chain, product,
# repeat with a count, islice, accumulate and zip_longest, in __init__ (which every
# route runs eagerly) and over constants in forward.
import itertools
from itertools import accumulate, chain, product

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        widths = [3, 4, 5]
        self.offsets = list(accumulate(widths))
        self.with_start = list(accumulate(widths, initial=10))
        self.products = list(accumulate([1, 2, 3, 4], lambda a, b: a * b))
        self.pairs = list(product(range(2), "ab"))
        self.squares = list(product([0, 1], repeat=2))
        dims = list(chain([3], itertools.repeat(6, 2), [2]))
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:]))
        self.first_two = list(itertools.islice(dims, 2))
        self.stepped = list(itertools.islice(range(10), 1, 8, 3))
        self.padded = list(itertools.zip_longest([1, 2, 3], [4], fillvalue=0))
        self.flat = list(chain.from_iterable([[1, 2], [3]]))

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return (x, self.offsets, self.with_start, self.products, len(self.pairs),
                self.squares[3], self.first_two, self.stepped, self.padded, self.flat)
