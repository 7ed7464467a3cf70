# What pygcn-style layers write: the base class and Parameter imported from PyTorch's
# internal module paths, the weights made with the legacy typed constructor
# torch.FloatTensor(rows, cols) and filled afterwards (here by copy_ under no_grad),
# register_parameter('bias', None), torch.spmm on dense tensors, and a LongTensor built
# from a list, a torch.Size (a shape) and a tuple (data).
import math

import torch
import torch.nn as nn
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter


class GraphConvolution(Module):
    def __init__(self, in_features, out_features, bias=True):
        super(GraphConvolution, self).__init__()
        self.weight = Parameter(torch.FloatTensor(in_features, out_features))
        if bias:
            self.bias = Parameter(torch.FloatTensor(out_features))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(1))
        n = self.weight.numel()
        with torch.no_grad():
            grid = torch.arange(n, dtype=torch.float32).reshape(self.weight.shape)
            self.weight.copy_((grid / n - 0.5) * 2 * stdv)
            if self.bias is not None:
                self.bias.copy_(torch.linspace(-stdv, stdv, self.bias.numel()))

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.spmm(adj, support)
        if self.bias is not None:
            return output + self.bias
        else:
            return output


class GCN(nn.Module):
    def __init__(self):
        super(GCN, self).__init__()
        self.gc1 = GraphConvolution(6, 8)
        self.gc2 = GraphConvolution(8, 3, bias=False)
        self.order = torch.LongTensor([2, 0, 1])
        self.empty = torch.Tensor()
        self.sized = torch.FloatTensor(self.order.size())  # a torch.Size: a shape
        self.data = torch.FloatTensor((1.5, 2))  # a tuple: data

    def forward(self, x, adj):
        x = torch.relu(self.gc1(x, adj))
        x = self.gc2(x, adj)
        # Only sized's shape: PyTorch leaves its values uninitialised.
        counts = self.empty.shape[0] + self.order.sum()
        return x[:, self.order], counts, self.sized.shape[0] + self.data.sum()
