# ConvTranspose2d's output_size out of the range the input allows: PyTorch's ValueError
# naming the requested size (a torch.Size here), the valid range and the input's sizes.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)

    def forward(self, x, skip):
        return self.up(x, output_size=skip.shape)
