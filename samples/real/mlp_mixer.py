# An MLP-Mixer over a sequence of patches, written as the reference code writes it:
# MlpBlock and MixerBlock modules, a stack of blocks in an nn.ModuleList built in a
# loop, iterated in forward, then a layer norm and a mean over patches.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MlpBlock(nn.Module):
    def __init__(self, dim, hidden_dim):
        super(MlpBlock, self).__init__()
        self.fc1 = nn.Linear(dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MixerBlock(nn.Module):
    def __init__(self, num_patches, dim, tokens_hidden, channels_hidden):
        super(MixerBlock, self).__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.token_mix = MlpBlock(num_patches, tokens_hidden)
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mix = MlpBlock(dim, channels_hidden)

    def forward(self, x):
        y = self.norm1(x).transpose(1, 2)
        x = x + self.token_mix(y).transpose(1, 2)
        return x + self.channel_mix(self.norm2(x))


class MlpMixer(nn.Module):
    def __init__(self, num_classes=5, num_blocks=2, patch_dim=12, num_patches=6, hidden_dim=16):
        super(MlpMixer, self).__init__()
        self.stem = nn.Linear(patch_dim, hidden_dim)
        blocks = []
        for _ in range(num_blocks):
            blocks.append(MixerBlock(num_patches, hidden_dim, 2 * num_patches, 2 * hidden_dim))
        self.blocks = nn.ModuleList(blocks)
        self.pre_head_norm = nn.LayerNorm(hidden_dim)
        self.head = nn.Linear(hidden_dim, num_classes)

    def forward(self, patches):
        x = self.stem(patches)
        for block in self.blocks:
            x = block(x)
        x = self.pre_head_norm(x)
        x = x.mean(dim=1)
        return self.head(x)
