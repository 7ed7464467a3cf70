# nn.Upsample with a size of three dims for a 4-d input: PyTorch's ValueError, raised
# at the module's call.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(size=(2, 3, 4))

    def forward(self, x):
        return self.up(x)
