# next() and iter() as model code uses them: `next(self.parameters())` for the device
# and dtype to build new tensors with, next(iter(...)) for the first item of a list or
# dict, next(it, default), and a for loop that leaves the rest of an iterator for later
# next() calls.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.head = nn.Linear(3, 2)
        self.first_name = next(iter(dict(self.named_parameters())))
        first = next(self.parameters())
        self.first_shape = tuple(first.shape)
        names = iter(["a", "b", "c", "d"])
        self.skipped = next(names)
        self.rest = []
        for n in names:
            self.rest.append(n)
            if n == "c":
                break
        self.after_break = next(names)
        self.exhausted = next(names, "none left")
        self.counted = sum(p.numel() for p in self.parameters())

    def forward(self, x):
        p = next(self.parameters())
        print(self.first_name, self.skipped, self.rest, self.after_break, self.exhausted)
        h = x.new_zeros(x.shape[0], 3) + self.fc(x.to(p.dtype))
        state = torch.zeros(x.shape[0], 2, device=p.device, dtype=p.dtype)
        return self.head(h) + state, p.dtype == torch.float32, self.first_shape, self.counted
