# Weight tying as language models write it: the decoder's weight is the embedding
# matrix, one tensor under two state_dict names (PyTorch writes both). A module passed
# to another's __init__ is shared, not copied. parameters() lists a tied tensor once.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 4, bias=False)

    def forward(self, x):
        return torch.tanh(self.proj(x))


class Tied(nn.Module):
    def __init__(self, encoder=None):
        super().__init__()
        if encoder is None:
            encoder = Encoder()
        self.encoder = encoder
        self.decoder = nn.Linear(4, 3, bias=False)
        self.decoder.weight = nn.Parameter(self.encoder.proj.weight.t().contiguous())
        self.out = nn.Linear(4, 3)
        self.out.weight = self.decoder.weight
        self.n_params = len(list(self.parameters()))
        self.n_named = len(list(self.named_parameters()))

    def forward(self, x):
        h = self.encoder(x)
        return self.out(h) + self.decoder(h), self.n_params, self.n_named
