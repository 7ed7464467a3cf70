# modules(), named_modules(), children(), named_children(), buffers(), named_buffers()
# and apply(fn) with a function that initialises weights through torch.no_grad() and
# fill_/copy_, as published code does in __init__. A shared submodule is listed once.
import torch
import torch.nn as nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.fill_(0.1)
            m.bias.copy_(torch.arange(m.out_features) * 0.01)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.act = nn.Tanh()
        self.register_buffer("offset", torch.ones(3))

    def forward(self, x):
        return self.act(self.fc(x)) + self.offset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = Block()
        self.second = Block()
        self.again = self.first
        self.head = nn.Linear(3, 2)
        self.apply(init_weights)
        self.n_modules = len(list(self.modules()))
        self.n_children = 0
        for child in self.children():
            self.n_children += 1
        self.labels = ""
        for name, m in self.named_modules():
            self.labels = self.labels + name + ":" + type(m).__name__ + " "
        for name, m in self.named_children():
            self.labels = self.labels + name + " "
        for name, b in self.named_buffers():
            self.labels = self.labels + name + " "
        self.n_buffers = len(list(self.buffers()))

    def forward(self, x):
        print(self.labels)
        return self.head(self.again(self.second(x))), self.n_modules, self.n_children, self.n_buffers
