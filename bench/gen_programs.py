"""Writes the benchmark workloads as model programs (plus inputs files) into a folder.

Both sides read the same files: d2s's Google Benchmark programs parse and run them,
bench/peer.py executes the very same source under PyTorch (eager, torch.jit.script,
torch.jit.trace). Every program is valid PyTorch Python and valid d2s model language.

    python3 bench/gen_programs.py OUT_DIR
"""
import os
import sys

# (a) per-op overhead: a chain of elementwise ops. Four op kinds in turn keep the
# values bounded (x*0.5 + 1 stays in [0, 2]; tanh and relu keep it there).
CHAIN_OPS = ["x = x * 0.5", "x = x + 1.0", "x = torch.tanh(x)", "x = torch.relu(x)"]


def chain_program(statements):
    lines = ["import torch", "from torch import Tensor", "", "", "def chain(x: Tensor):"]
    lines += ["    " + CHAIN_OPS[i % len(CHAIN_OPS)] for i in range(statements)]
    lines.append("    return x")
    return "\n".join(lines) + "\n"


def nested_program(statements):
    """About `statements` statements, a third of them `if`s nested three deep."""
    lines = ["import torch", "from torch import Tensor", "", "", "def nested(x: Tensor):"]
    count = 0
    i = 0
    while count < statements:
        lines.append("    if x.mean() > -1000.0:")
        lines.append("        " + CHAIN_OPS[i % 4])
        lines.append("        if x.mean() < 1000.0:")
        lines.append("            " + CHAIN_OPS[(i + 1) % 4])
        lines.append("            if x.sum() > -1000.0:")
        lines.append("                " + CHAIN_OPS[(i + 2) % 4])
        count += 6
        i += 3
    lines.append("    return x")
    return "\n".join(lines) + "\n"


# (b) the RNN cell in a loop, kept as prim::Loop by the parse route.
RNN = """import torch
from torch import Tensor


def rnn(x: Tensor, h: Tensor, W: Tensor, U: Tensor, b: Tensor, steps: int):
    for i in range(steps):
        h = torch.tanh(x @ W + h @ U + b)
    return h
"""

# (c) the MLP 784-512-512-10 with relu; weights are inputs, laid out as nn.Linear's.
MLP = """import torch
import torch.nn.functional as F
from torch import Tensor


def mlp(x: Tensor, w1: Tensor, b1: Tensor, w2: Tensor, b2: Tensor, w3: Tensor, b3: Tensor):
    h = torch.relu(F.linear(x, w1, b1))
    h = torch.relu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)
"""

# (i) a training step of the MLP of (c) (issue 18): forward, cross-entropy loss, backward
# and an Adam step, on a batch of 64 with class-index targets. `train_step` runs the
# forward eagerly; `train_step_compiled` calls the model through torch.compile (d2s: the
# parse route's graph; PyTorch 1.13, which has no torch.compile: torch.jit.script, see
# peer.py). Both run in one program, as the pattern card's two halves do.
TRAIN_MLP = """import torch
import torch.nn as nn
from torch import Tensor


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 512)
        self.fc2 = nn.Linear(512, 512)
        self.fc3 = nn.Linear(512, 10)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        h = torch.relu(self.fc2(h))
        return self.fc3(h)


model = MLP()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
compiled_model = torch.compile(model)


def train_step(x: Tensor, y: Tensor):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def train_step_compiled(x: Tensor, y: Tensor):
    optimizer.zero_grad()
    loss = loss_fn(compiled_model(x), y)
    loss.backward()
    optimizer.step()
    return loss
"""

# (d) one big matrix product.
MATMUL = """import torch
from torch import Tensor


def matmul(a: Tensor, b: Tensor):
    return torch.mm(a, b)
"""

# (j) one LSTM layer over a sequence (torch.lstm, the op nn.LSTM records): time-major
# x [32, 8, 64], hidden 128, weights laid out as nn.LSTM's.
LSTM = """import torch
from torch import Tensor


def lstm(x: Tensor, h: Tensor, c: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor, b_hh: Tensor):
    y, hn, cn = torch.lstm(x, [h, c], [w_ih, w_hh, b_ih, b_hh], True, 1, 0.0, False, False, False)
    return y
"""
LSTM_SHAPES = {"x": [32, 8, 64], "h": [1, 8, 128], "c": [1, 8, 128], "w_ih": [512, 64],
               "w_hh": [512, 128], "b_ih": [512], "b_hh": [512]}

# (k) a ResNet basic block in inference: conv3x3-BN-ReLU-conv3x3-BN, plus the identity,
# ReLU; x [4, 64, 32, 32]. The running variances come in as any random tensor and are
# made positive in the program (abs + 0.5), so every route computes finite numbers.
RESNET_BLOCK = """import torch
import torch.nn.functional as F
from torch import Tensor


def resnet_block(x: Tensor, w1: Tensor, g1: Tensor, b1: Tensor, m1: Tensor, v1: Tensor,
                 w2: Tensor, g2: Tensor, b2: Tensor, m2: Tensor, v2: Tensor):
    out = F.conv2d(x, w1, None, 1, 1)
    out = F.batch_norm(out, m1, v1.abs() + 0.5, g1, b1, False, 0.1, 1e-5)
    out = F.relu(out)
    out = F.conv2d(out, w2, None, 1, 1)
    out = F.batch_norm(out, m2, v2.abs() + 0.5, g2, b2, False, 0.1, 1e-5)
    return F.relu(out + x)
"""
RESNET_BLOCK_SHAPES = {"x": [4, 64, 32, 32], "w1": [64, 64, 3, 3], "g1": [64], "b1": [64],
                       "m1": [64], "v1": [64], "w2": [64, 64, 3, 3], "g2": [64], "b2": [64],
                       "m2": [64], "v2": [64]}

# (f), (g): a loop whose trace has about `nodes` nodes (loop_inputs), so that d2s
# diff compares a long trace with the parsed graph's one prim::Loop.
LOOP = """import torch
from torch import Tensor


def loop(x: Tensor, n: int):
    for i in range(n):
        x = x * 0.5 + 1.0
    return x
"""

# The sizes each workload uses; peer.py and run_bench.py read them from here.
FRONTEND_SIZES = [100, 1000, 10000]
DIFF_NODES = [10000, 100000]
RENDER_NODES = [100, 1000, 10000]
RNN_STEPS = 10000


def loop_inputs(nodes):
    # Each iteration of x*0.5 + 1.0 traces to 5 nodes: mul, add and their 3 constants.
    return "x: {shape: [4], fill: randn, seed: 1}\nn: %d\n" % (nodes // 5)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "chain.py"), chain_program(1000))
    write(os.path.join(out, "rnn.py"), RNN)
    write(os.path.join(out, "mlp.py"), MLP)
    write(os.path.join(out, "matmul.py"), MATMUL)
    write(os.path.join(out, "train_mlp.py"), TRAIN_MLP)
    write(os.path.join(out, "lstm.py"), LSTM)
    write(os.path.join(out, "resnet_block.py"), RESNET_BLOCK)
    write(os.path.join(out, "loop.py"), LOOP)
    for n in FRONTEND_SIZES:
        write(os.path.join(out, "straight_%d.py" % n), chain_program(n))
        write(os.path.join(out, "nested_%d.py" % n), nested_program(n))
    write(os.path.join(out, "frontend.inputs.yaml"), "x: {shape: [4], fill: randn, seed: 1}\n")
    for n in sorted(set(DIFF_NODES + RENDER_NODES)):
        write(os.path.join(out, "loop_%d.inputs.yaml" % n), loop_inputs(n))


if __name__ == "__main__":
    main()
