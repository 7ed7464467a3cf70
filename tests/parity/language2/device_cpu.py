# Device handling as model files write it: the device chosen in __init__ by
# torch.cuda.is_available(), tensors moved with .to(device) and made with device=,
# x.is_cuda and torch.cuda.device_count() read in forward. d2s runs on the CPU, as
# PyTorch does on a machine without CUDA (the suite's machine has none either).
import torch
import torch.nn as nn


class OnDevice(nn.Module):
    def __init__(self):
        super().__init__()
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.fc = nn.Linear(3, 2).to(self.device)

    def forward(self, x):
        x = x.to(self.device)
        bias = torch.ones(2, device=self.device)
        where = torch.device("cuda:0" if x.is_cuda else "cpu")
        print(self.device, where, torch.cuda.device_count())
        return self.fc(x) + bias * float(torch.cuda.is_available())
