# A DCGAN generator written as the pytorch/examples DCGAN script writes its models: the
# sizes as module-level settings, a weights_init for netG.apply, a Sequential of
# ConvTranspose2d-BatchNorm2d-ReLU(True) stages doubling the image each time and
# ending in Tanh, `super(Generator, self).__init__()`, and a script part (main) that
# only a training run would call. Noise of shape [batch, nz, 1, 1] becomes
# [batch, nc, 32, 32] images.
from __future__ import print_function
import argparse
import torch
import torch.nn as nn
import torch.optim as optim

nz = 16  # size of the latent vector
ngf = 8  # generator feature maps
nc = 3  # image channels


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.0002)
    parser.add_argument("--beta1", type=float, default=0.5)
    opt = parser.parse_args()
    netG = Generator()
    netG.apply(weights_init)
    optimizerG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
    fixed_noise = torch.randn(64, nz, 1, 1)
    fake = netG(fixed_noise)
    print(fake.shape, optimizerG)


class Generator(nn.Module):
    def __init__(self, ngpu=1):
        super(Generator, self).__init__()
        self.ngpu = ngpu
        self.main = nn.Sequential(
            # the latent vector, as a 1x1 image, goes into a transposed convolution
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            # state size: (ngf*4) x 4 x 4
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            # state size: (ngf*2) x 8 x 8
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            # state size: (ngf) x 16 x 16
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh()
            # state size: (nc) x 32 x 32
        )

    def forward(self, input):
        output = self.main(input)
        return output
