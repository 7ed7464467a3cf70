# A model file as published: imports d2s does not implement (argparse, os, sys,
# numpy, collections) are accepted because the entry never uses them, and the script
# part under the __main__ test does not run when the model (the last class, as d2s
# picks the entry) is run.
from __future__ import print_function
import argparse
import os, sys
import math
import numpy as np
from collections import OrderedDict
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    parser = argparse.ArgumentParser(description="train the net")
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    print(os.getcwd(), sys.argv, np.zeros(3), args, OrderedDict())


class Net(nn.Module):
    def __init__(self, hidden: int = 6):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(5, hidden)
        self.fc2 = nn.Linear(hidden, 3)
        self.temperature = math.sqrt(hidden)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, bool]:
        h = F.relu(self.fc1(x)) / self.temperature
        return F.log_softmax(self.fc2(h), dim=1), __name__ == "__main__"


if __name__ == "__main__":
    main()
