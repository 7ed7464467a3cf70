# A character-level RNN as the "classifying names" tutorial writes it: the cell is
# two nn.Linear layers over the input and hidden state concatenated; forward is one
# step of the cell (the tutorial's train loop calls it once per letter).
from __future__ import unicode_literals, print_function, division
from io import open
import glob
import os
import unicodedata
import string

import torch
import torch.nn as nn
import torch.nn.functional as F

n_letters = 57  # len(string.ascii_letters + " .,;'")
n_hidden = 32
n_categories = 18


class RNN(nn.Module):
    def __init__(self, input_size=n_letters, hidden_size=n_hidden, output_size=n_categories):
        super(RNN, self).__init__()

        self.hidden_size = hidden_size

        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = torch.tanh(self.i2h(combined))
        output = F.log_softmax(self.h2o(hidden), dim=1)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)
