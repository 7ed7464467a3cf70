#!/usr/bin/env python3
"""Workload (b) as a user runs it: `d2s run rnn.py --mode parse` as a whole process
(start, parse, lower, 100,000 loop steps of h = tanh(x @ W + h @ U + b) on 1x16 tensors,
print) beside torch.jit.script's call time for the same function in the same run.

    /usr/bin/python3 bench/rnn_as_user.py BUILD_DIR [--steps N] [--repeat K]

Prints the medians and the ratio; issue 21's note quotes it before and after a change.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAM = """import torch
from torch import Tensor


def rnn(x: Tensor, h: Tensor, W: Tensor, U: Tensor, b: Tensor, steps: int):
    for i in range(steps):
        h = torch.tanh(x @ W + h @ U + b)
    return h
"""

INPUTS = """- x: {{shape: [1, 16], fill: randn, seed: 1}}
  h: {{shape: [1, 16], fill: randn, seed: 2}}
  W: {{shape: [16, 16], fill: rand, seed: 3}}
  U: {{shape: [16, 16], fill: rand, seed: 4}}
  b: {{shape: [1, 16], fill: randn, seed: 5}}
  steps: {steps}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--steps", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    d2s = os.path.join(args.build, "cli", "d2s")
    with tempfile.TemporaryDirectory() as work:
        prog = os.path.join(work, "rnn.py")
        with open(prog, "w") as f:
            f.write(PROGRAM)
        inputs = os.path.join(work, "rnn.inputs.yaml")
        with open(inputs, "w") as f:
            f.write(INPUTS.format(steps=args.steps))
        d2s_times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run([d2s, "run", prog, "--mode", "parse", "--inputs", inputs],
                           check=True, stdout=subprocess.DEVNULL)
            d2s_times.append(time.perf_counter() - start)

        import torch
        sys.path.insert(0, work)
        import rnn as module
        fn = torch.jit.script(module.rnn)
        torch.manual_seed(0)
        x, h, b = torch.randn(1, 16), torch.randn(1, 16), torch.randn(1, 16)
        W, U = torch.rand(16, 16), torch.rand(16, 16)
        fn(x, h, W, U, b, 10)  # compiled and warmed before timing
        script_times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            fn(x, h, W, U, b, args.steps)
            script_times.append(time.perf_counter() - start)
    d2s_med, script_med = statistics.median(d2s_times), statistics.median(script_times)
    print("d2s run --mode parse, whole process: %.1f ms (median of %d)" % (d2s_med * 1e3, args.repeat))
    print("torch.jit.script call: %.1f ms (median of %d)" % (script_med * 1e3, args.repeat))
    print("d2s / script: %.3f" % (d2s_med / script_med))


if __name__ == "__main__":
    main()
