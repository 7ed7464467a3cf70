# The module structure of the attention layers as PyTorch 1.13 has it: out_proj is an
# nn.Linear (a NonDynamicallyQuantizableLinear), the encoder's layers are copies in a
# ModuleList, repr() lists the submodules, named_parameters() and buffers() as PyTorch's.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.attn = nn.MultiheadAttention(4, 1, bias=False)
        self.linears = sum(1 for m in self.modules() if isinstance(m, nn.Linear))
        # repr() made here: the parse route prints strings, not modules.
        self.texts = [repr(self.attn), repr(self.encoder.layers[1])]
        self.shared = self.encoder.layers[0].linear1.weight is self.encoder.layers[1].linear1.weight

    def forward(self, x):
        linears = self.linears
        print(type(self.attn.out_proj).__name__, linears, isinstance(self.attn.out_proj, nn.Linear))
        print(self.texts[0])
        print(self.texts[1])
        names = [n for n, _ in self.named_parameters()]
        print(len(names), names[0], names[-1])
        print(self.attn.in_proj_bias is None, self.attn.bias_k is None, self.attn.head_dim)
        return self.encoder(x), self.shared, linears
