# nn.Sequential(OrderedDict([...])) with named children, as torchvision's and the
# tutorials' feature extractors write it: state_dict keys are
# `features.conv1.weight`, children are reached by name and by index, and the
# Sequential runs them in order in every route.
from collections import OrderedDict

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.features = nn.Sequential(
            OrderedDict(
                [
                    ("conv1", nn.Conv2d(1, 4, kernel_size=3, padding=1)),
                    ("relu1", nn.ReLU()),
                    ("pool1", nn.MaxPool2d(2)),
                ]
            )
        )
        layers = OrderedDict()
        layers["fc1"] = nn.Linear(4 * 3 * 3, 8)
        layers["act"] = nn.Tanh()
        layers["fc2"] = nn.Linear(8, 2)
        self.classifier = nn.Sequential(layers)

    def forward(self, x):
        h = self.features(x)
        first = self.features.conv1(x).mean()
        return self.classifier(h.flatten(1)), first, self.classifier[2].weight.sum()
