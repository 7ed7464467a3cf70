# ConvTranspose1d's output_size below the range, as a list on an unbatched input.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose1d(2, 3, 4, stride=3)

    def forward(self, x):
        return self.up(x, [x.size(1)])
