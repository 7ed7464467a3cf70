# Module-level values computed by calls, as scripts write their settings: the device
# by torch.cuda.is_available(), a scale by math.sqrt, sizes by arithmetic and a tuple
# by tuple(). The parse route takes them from the interpreter's run of the top level
# (they are constants of the graph); the entry is a function, whose top level runs only
# for them.
import math

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SCALE = math.sqrt(2.0)
HIDDEN = 4 * 2
LABELS = tuple(["low", "high"])


def computed_globals(x):
    y = torch.zeros(HIDDEN, device=device) + x.to(device).sum() * SCALE
    print(LABELS[1], device)
    return y
