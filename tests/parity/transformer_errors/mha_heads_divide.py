# nn.MultiheadAttention's embed_dim must be a multiple of num_heads: PyTorch's
# AssertionError from the constructor.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(10, 3)

    def forward(self, x):
        return self.attn(x, x, x)[0]
