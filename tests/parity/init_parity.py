"""torch.nn.init and Tensor.uniform_/normal_ against live PyTorch 1.13 (issue 17 item 4).

    init_parity.py D2S

Each case is a small program whose Model's __init__ initialises parameters and whose
forward returns them; it runs unchanged under PyTorch and under d2s in the eager, trace
and parse modes with the same --seed. Checked:

- deterministic initialisers (constant_, zeros_, ones_, eye_, dirac_), calculate_gain for
  every nonlinearity PyTorch 1.13 knows and _calculate_fan_in_and_fan_out: exactly
  PyTorch's values;
- random ones: the three routes give the same values; every value is d2s's generator
  (tests/parity/d2s_random.py) run through PyTorch's formula with the bounds / std PyTorch
  computes for that shape, mode and nonlinearity (so within PyTorch's bound); a large
  tensor's mean and std are within a tolerance of PyTorch's formula; orthogonal_ gives
  (semi-)orthogonal rows or columns times gain; trunc_normal_ stays in [a, b];
- error paths: d2s's message is PyTorch's live exception, `Type: message` (a kernel's
  RuntimeError without its type, as d2s's kernels say them all).

Exit status 1 when a case fails.
"""

import math
import os
import sys
import tempfile

from parity_common import (Mismatch, compare, d2s_outputs, expected_outputs, import_sample,
                           np, run_d2s, torch)
from d2s_random import Generator

SEED = 11
MODES = ("eager", "trace", "parse")
init = torch.nn.init

HEADER = """import math
import torch
import torch.nn as nn
from torch.nn import init
import torch.nn.init as tinit


"""


def program(body, ret, helpers=""):
    lines = "\n".join("        " + line for line in body.strip().splitlines())
    return (HEADER + helpers + "\n\nclass Model(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n" + lines + "\n\n    def forward(self, x):\n"
            "        return " + ret + "\n")


def f32(x):
    return float(np.float32(x))


def run_routes(d2s, path, tmp):
    """The outputs of every route (all equal: the same seed gives the same values)."""
    in_path = os.path.join(tmp, "inputs.yaml")
    with open(in_path, "w", encoding="utf-8") as f:
        f.write("- x: {shape: [1], data: [1.0]}\n")
    results = {}
    for mode in MODES:
        args = ["run", path, "--inputs", in_path, "--mode", mode, "--seed", str(SEED)]
        if mode == "trace":
            args += ["--trace-inputs", in_path]
        p, outputs = d2s_outputs(d2s, args, tmp)
        if outputs is None:
            raise Mismatch(f"{mode}: d2s exited {p.returncode}: {p.stderr.strip()[:400]}")
        results[mode] = outputs
    for mode in MODES[1:]:
        if results[mode] != results["eager"]:
            raise Mismatch(f"{mode}'s values differ from eager's with the same seed")
    return results["eager"]


def data(out):
    return [float(v) for v in np.array(out["data"], dtype=np.float64).reshape(-1)]


def torch_model(path):
    return import_sample(path).Model()


# ---------------------------------------------------------------- the cases
# Random: (name, shape(s), __init__ body, expected draws). `expect` gets the PyTorch tensor
# of that shape and the generator, and returns the values d2s must give.

def uniform_from(lo, hi):
    return lambda g, n: [f32(lo + (hi - lo) * g.uniform()) for _ in range(n)]


def normal_from(mean, std):
    return lambda g, n: [f32(mean + std * g.normal()) for _ in range(n)]


def kaiming_bound(t, a, mode, nonlinearity):
    std = init.calculate_gain(nonlinearity, a) / math.sqrt(init._calculate_correct_fan(t, mode))
    return math.sqrt(3.0) * std, std


def xavier_std(t, gain):
    fan_in, fan_out = init._calculate_fan_in_and_fan_out(t)
    return gain * math.sqrt(2.0 / float(fan_in + fan_out))


def random_cases():
    k = kaiming_bound
    return [
        ("tensor_uniform_", (5, 3), "self.w = nn.Parameter(torch.empty(5, 3))\n"
         "with torch.no_grad():\n    self.w.uniform_(-0.5, 2.0)", lambda t: uniform_from(-0.5, 2.0)),
        ("tensor_uniform_defaults_data", (7,), "self.w = nn.Parameter(torch.empty(7))\n"
         "self.w.data.uniform_()", lambda t: uniform_from(0.0, 1.0)),
        ("pygcn_data_uniform_", (4, 6), "self.w = nn.Parameter(torch.FloatTensor(4, 6))\n"
         "stdv = 1. / math.sqrt(self.w.size(1))\nself.w.data.uniform_(-stdv, stdv)",
         lambda t: uniform_from(-1 / math.sqrt(6), 1 / math.sqrt(6))),
        ("tensor_normal_", (9,), "self.w = nn.Parameter(torch.empty(9))\n"
         "with torch.no_grad():\n    r = self.w.normal_(1.5, 0.25)\nassert r is self.w",
         lambda t: normal_from(1.5, 0.25)),
        ("init_uniform_", (3, 4), "self.w = nn.Parameter(torch.empty(3, 4))\n"
         "nn.init.uniform_(self.w, -0.1, 0.1)", lambda t: uniform_from(-0.1, 0.1)),
        ("init_normal_kw", (3, 5), "self.w = nn.Parameter(torch.empty(3, 5))\n"
         "torch.nn.init.normal_(self.w, std=0.02)", lambda t: normal_from(0.0, 0.02)),
        ("xavier_uniform_gain", (6, 4, 3), "self.w = nn.Parameter(torch.empty(6, 4, 3))\n"
         "init.xavier_uniform_(self.w, gain=init.calculate_gain('tanh'))",
         lambda t: uniform_from(-math.sqrt(3) * xavier_std(t, init.calculate_gain("tanh")),
                                math.sqrt(3) * xavier_std(t, init.calculate_gain("tanh")))),
        ("xavier_normal_", (8, 5), "self.w = nn.Parameter(torch.empty(8, 5))\n"
         "tinit.xavier_normal_(self.w)", lambda t: normal_from(0.0, xavier_std(t, 1.0))),
        ("kaiming_uniform_default", (4, 3, 2, 2), "self.w = nn.Parameter(torch.empty(4, 3, 2, 2))\n"
         "nn.init.kaiming_uniform_(self.w)",
         lambda t: uniform_from(-k(t, 0, "fan_in", "leaky_relu")[0], k(t, 0, "fan_in", "leaky_relu")[0])),
        ("kaiming_uniform_sqrt5", (6, 4), "self.w = nn.Parameter(torch.empty(6, 4))\n"
         "nn.init.kaiming_uniform_(self.w, a=math.sqrt(5))",
         lambda t: uniform_from(-k(t, math.sqrt(5), "fan_in", "leaky_relu")[0],
                                k(t, math.sqrt(5), "fan_in", "leaky_relu")[0])),
        ("kaiming_normal_fan_out_relu", (5, 3, 3, 3), "self.w = nn.Parameter(torch.empty(5, 3, 3, 3))\n"
         "nn.init.kaiming_normal_(self.w, mode='fan_out', nonlinearity='relu')",
         lambda t: normal_from(0.0, k(t, 0, "fan_out", "relu")[1])),
        ("deprecated_xavier_uniform", (3, 7), "self.w = nn.Parameter(torch.empty(3, 7))\n"
         "init.xavier_uniform(self.w)",
         lambda t: uniform_from(-math.sqrt(3) * xavier_std(t, 1.0), math.sqrt(3) * xavier_std(t, 1.0))),
        ("deprecated_normal", (4,), "self.w = nn.Parameter(torch.empty(4))\n"
         "nn.init.normal(self.w, 1.0, 3.0)", lambda t: normal_from(1.0, 3.0)),
        ("kaiming_normal_FAN_IN_leaky", (7, 2), "self.w = nn.Parameter(torch.empty(7, 2))\n"
         "nn.init.kaiming_normal_(self.w, 0.2, 'FAN_IN')",
         lambda t: normal_from(0.0, k(t, 0.2, "fan_in", "leaky_relu")[1])),
    ]


def check_forward_draws(d2s, tmp):
    """uniform_ / normal_ in forward stay random ops in the graphs: two identical draws
    are not merged or folded, and each route gives the generator's sequence (nothing is
    drawn in __init__, so the graph routes' fresh generator starts where eager's does)."""
    body = "self.k = 2"
    ret = ("torch.empty(2, 3).uniform_(-1.0, 1.0), torch.empty(2, 3).uniform_(-1.0, 1.0), "
           "torch.zeros(5).normal_(2.0, 0.5), torch.zeros(5).normal_(2.0, 0.5)")
    path = os.path.join(tmp, "forward_draws.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(program(body, ret))
    try:
        torch_model(path)(torch.ones(1))
        outs = run_routes(d2s, path, tmp)
        g = Generator(SEED)
        want = [uniform_from(-1.0, 1.0)(g, 6), uniform_from(-1.0, 1.0)(g, 6),
                normal_from(2.0, 0.5)(g, 5), normal_from(2.0, 0.5)(g, 5)]
        got = [[f32(v) for v in data(o)] for o in outs]
        if got != [[f32(v) for v in w] for w in want]:
            raise Mismatch(f"d2s {got}, its generator's sequence {want}")
        print("PASS forward_draws")
        return 0
    except Mismatch as e:
        print(f"FAIL forward_draws: {e}")
        return 1


def check_random(d2s, tmp):
    failed = 0
    for name, shape, body, expect in random_cases():
        path = os.path.join(tmp, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(program(body, "self.w"))
        try:
            torch_model(path)  # runs unchanged under PyTorch
            out = run_routes(d2s, path, tmp)[0]
            if list(out["shape"]) != list(shape):
                raise Mismatch(f"shape {out['shape']}, PyTorch {list(shape)}")
            t = torch.empty(shape)
            n = t.numel()
            want = expect(t)(Generator(SEED), n)
            got = [f32(v) for v in data(out)]
            want = [f32(v) for v in want]
            if got != want:
                i = next(i for i in range(n) if got[i] != want[i])
                raise Mismatch(f"[{i}] d2s {got[i]!r}, its generator through PyTorch's formula "
                               f"{want[i]!r}")
            print(f"PASS random {name}")
        except Mismatch as e:
            print(f"FAIL random {name}: {e}")
            failed += 1
    return failed


# Large tensors: mean and std against PyTorch's formula; bounds where PyTorch has them.
def statistics_cases():
    return [
        ("kaiming_uniform_stats", (256, 128), "nn.init.kaiming_uniform_(self.w, a=math.sqrt(5))",
         lambda t: (0.0, kaiming_bound(t, math.sqrt(5), "fan_in", "leaky_relu")[1] * 1.0,
                    kaiming_bound(t, math.sqrt(5), "fan_in", "leaky_relu")[0])),
        ("kaiming_normal_stats", (128, 64, 3, 3),
         "nn.init.kaiming_normal_(self.w, mode='fan_out', nonlinearity='relu')",
         lambda t: (0.0, kaiming_bound(t, 0, "fan_out", "relu")[1], None)),
        ("xavier_uniform_stats", (300, 200), "nn.init.xavier_uniform_(self.w)",
         lambda t: (0.0, xavier_std(t, 1.0), math.sqrt(3) * xavier_std(t, 1.0))),
        ("xavier_normal_stats", (300, 200), "nn.init.xavier_normal_(self.w, gain=2.0)",
         lambda t: (0.0, xavier_std(t, 2.0), None)),
        ("normal_stats", (40000,), "nn.init.normal_(self.w, 3.0, 0.5)", lambda t: (3.0, 0.5, None)),
        ("uniform_stats", (40000,), "nn.init.uniform_(self.w, -2.0, 4.0)",
         lambda t: (1.0, 6.0 / math.sqrt(12.0), None)),
    ]


def check_statistics(d2s, tmp):
    failed = 0
    for name, shape, call, formula in statistics_cases():
        dims = ", ".join(str(s) for s in shape)
        body = f"self.w = nn.Parameter(torch.empty({dims}))\n{call}"
        path = os.path.join(tmp, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(program(body, "self.w"))
        try:
            ref = torch_model(path).w.detach()  # PyTorch's own draw, for its spread
            mean, std, bound = formula(torch.empty(shape))
            got = np.array(data(run_routes(d2s, path, tmp)[0]))
            n = got.size
            if abs(got.mean() - mean) > 5 * std / math.sqrt(n):
                raise Mismatch(f"mean {got.mean():.5g}, PyTorch's formula {mean:.5g}")
            if abs(got.std() / std - 1) > 0.03:
                raise Mismatch(f"std {got.std():.5g}, PyTorch's formula {std:.5g}")
            if abs(float(ref.std()) / std - 1) > 0.03:
                raise Mismatch(f"the suite's formula {std:.5g} is not PyTorch's spread "
                               f"{float(ref.std()):.5g}")
            if bound is not None and (got.min() < -bound or got.max() > bound):
                raise Mismatch(f"values [{got.min()}, {got.max()}] outside PyTorch's bound "
                               f"{bound}")
            print(f"PASS statistics {name}")
        except Mismatch as e:
            print(f"FAIL statistics {name}: {e}")
            failed += 1
    return failed


# Deterministic: d2s's outputs are PyTorch's exactly.
GAINS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
         "conv_transpose3d", "sigmoid", "tanh", "relu", "selu", "leaky_relu")


def exact_cases():
    gains = ", ".join(f"init.calculate_gain('{g}')" for g in GAINS)
    return [
        ("constant_zeros_ones", "self.a = nn.Parameter(torch.empty(2, 3))\n"
         "self.b = nn.Parameter(torch.empty(4))\nself.c = nn.Parameter(torch.empty(3, 1))\n"
         "r = nn.init.constant_(self.a, 0.3)\nassert r is self.a\nnn.init.zeros_(self.b)\n"
         "torch.nn.init.ones_(self.c)", "self.a, self.b, self.c"),
        ("eye_", "self.a = nn.Parameter(torch.empty(3, 5))\nself.b = nn.Parameter(torch.empty(4, 2))\n"
         "nn.init.eye_(self.a)\ninit.eye_(self.b)", "self.a, self.b"),
        ("dirac_", "self.a = nn.Parameter(torch.empty(4, 3, 3, 3))\n"
         "self.b = nn.Parameter(torch.empty(6, 2, 5))\n"
         "self.c = nn.Parameter(torch.empty(2, 3, 1, 2, 3))\n"
         "nn.init.dirac_(self.a)\nnn.init.dirac_(self.b, groups=3)\nnn.init.dirac_(self.c)",
         "self.a, self.b, self.c"),
        ("calculate_gain", f"self.gains = [{gains}, init.calculate_gain('leaky_relu', 0.2), "
         "init.calculate_gain('leaky_relu', 3), init.calculate_gain('relu', 'ignored')]",
         "tuple(self.gains)"),
        ("fan_in_and_fan_out", "self.fans = [init._calculate_fan_in_and_fan_out(torch.empty(*s))"
         " for s in [(3, 4), (5, 2, 3), (6, 4, 3, 2), (2, 1, 1, 1, 7)]]",
         "tuple(self.fans)"),
        ("legacy_constructors", "self.a = torch.FloatTensor([1, 2.5])\n"
         "self.b = torch.LongTensor((3, 4))\nself.c = torch.FloatTensor(2, 0)",
         "self.a, self.b, self.c"),
        ("deprecated_constant_eye", "self.a = nn.Parameter(torch.empty(2, 2))\n"
         "self.b = nn.Parameter(torch.empty(2, 3))\nnn.init.constant(self.a, -2.5)\n"
         "nn.init.eye(self.b)", "self.a, self.b"),
        ("kaiming_empty_noop", "self.w = nn.Parameter(torch.zeros(0, 3))\n"
         "nn.init.kaiming_uniform_(self.w)", "self.w"),
    ]


def check_exact(d2s, tmp):
    failed = 0
    for name, body, ret in exact_cases():
        path = os.path.join(tmp, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(program(body, ret))
        try:
            expected = torch_model(path)(torch.ones(1))
            outs = run_routes(d2s, path, tmp)
            compare(expected_outputs(expected), outs, "outputs")
            print(f"PASS exact {name}")
        except Mismatch as e:
            print(f"FAIL exact {name}: {e}")
            failed += 1
    return failed


def check_orthogonal_trunc(d2s, tmp):
    failed = 0
    cases = [
        ("orthogonal_tall", "self.w = nn.Parameter(torch.empty(6, 3))\n"
         "nn.init.orthogonal_(self.w, gain=2.0)", (6, 3), 2.0),
        ("orthogonal_wide_conv", "self.w = nn.Parameter(torch.empty(3, 2, 2, 2))\n"
         "nn.init.orthogonal_(self.w)", (3, 2, 2, 2), 1.0),
        ("trunc_normal_", "self.w = nn.Parameter(torch.empty(5000))\n"
         "nn.init.trunc_normal_(self.w, mean=0.1, std=0.5, a=-0.3, b=0.4)", (5000,), None),
    ]
    for name, body, shape, gain in cases:
        path = os.path.join(tmp, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(program(body, "self.w"))
        try:
            torch_model(path)
            got = np.array(data(run_routes(d2s, path, tmp)[0]))
            if gain is not None:
                m = got.reshape(shape[0], -1)
                if m.shape[0] < m.shape[1]:
                    m = m.T
                gram = m.T @ m / (gain * gain)
                if not np.allclose(gram, np.eye(gram.shape[0]), atol=1e-5):
                    raise Mismatch(f"not orthogonal: Q^T Q / gain^2 =\n{gram}")
            else:
                if got.min() < f32(-0.3) or got.max() > f32(0.4):
                    raise Mismatch(f"values [{got.min()}, {got.max()}] outside [a, b]")
                # PyTorch's own draw of the same truncated normal, for its mean.
                ref = torch.empty(200000)
                init.trunc_normal_(ref, mean=0.1, std=0.5, a=-0.3, b=0.4)
                if abs(got.mean() - float(ref.mean())) > 0.01 or \
                        abs(got.std() - float(ref.std())) > 0.01:
                    raise Mismatch(f"mean/std {got.mean():.4g}/{got.std():.4g}, PyTorch's "
                                   f"{float(ref.mean()):.4g}/{float(ref.std()):.4g}")
            print(f"PASS {name}")
        except Mismatch as e:
            print(f"FAIL {name}: {e}")
            failed += 1
    return failed


# Errors: d2s's message (exit 2, or 1 for a RuntimeError of a kernel) says PyTorch's.
def error_cases():
    p = "self.w = nn.Parameter(torch.empty(4, 3))\n"
    v = "self.w = nn.Parameter(torch.empty(4))\n"
    return [
        ("bad_mode", p + "nn.init.kaiming_uniform_(self.w, mode='fan_avg')"),
        ("bad_mode_normal", p + "nn.init.kaiming_normal_(self.w, mode='Fan_Sum')"),
        ("bad_nonlinearity", p + "nn.init.kaiming_normal_(self.w, nonlinearity='swish')"),
        ("gain_unknown", "g = init.calculate_gain('softmax')"),
        ("gain_bad_slope", "g = init.calculate_gain('leaky_relu', 'steep')"),
        ("gain_bool_slope", "g = init.calculate_gain('leaky_relu', True)"),
        ("xavier_1d", v + "nn.init.xavier_uniform_(self.w)"),
        ("xavier_normal_1d", v + "nn.init.xavier_normal_(self.w)"),
        ("kaiming_1d", v + "nn.init.kaiming_uniform_(self.w)"),
        ("fans_1d", "f = init._calculate_fan_in_and_fan_out(torch.empty(3))"),
        ("eye_3d", "self.w = nn.Parameter(torch.empty(2, 2, 2))\nnn.init.eye_(self.w)"),
        ("dirac_2d", p + "nn.init.dirac_(self.w)"),
        ("dirac_groups", "self.w = nn.Parameter(torch.empty(5, 2, 3))\nnn.init.dirac_(self.w, 2)"),
        ("orthogonal_1d", v + "nn.init.orthogonal_(self.w)"),
        ("uniform_from_gt_to", v + "nn.init.uniform_(self.w, 1.0, 0.5)"),
        ("normal_negative_std", v + "nn.init.normal_(self.w, 0.0, -1.0)"),
        ("floattensor_negative", "t = torch.FloatTensor(2, -3)"),
        ("leaf_uniform_", v + "self.w.uniform_()"),
        ("leaf_normal_", v + "self.w.normal_(0, 1)"),
    ]


def check_errors(d2s, tmp):
    failed = 0
    in_path = os.path.join(tmp, "inputs.yaml")
    for name, body in error_cases():
        path = os.path.join(tmp, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(program(body, "x"))
        try:
            try:
                torch_model(path)
                raise Mismatch("PyTorch raised nothing: the case is wrong")
            except Mismatch:
                raise
            except Exception as e:  # PyTorch's error, the expectation
                want = f"{type(e).__name__}: {e}"
                # d2s's kernels say a RuntimeError's message without its type, as all
                # of core/'s kernel errors do.
                said = str(e) if isinstance(e, RuntimeError) else want
            p = run_d2s(d2s, ["run", path, "--inputs", in_path, "--mode", "eager"], tmp)
            if p.returncode == 0:
                raise Mismatch(f"d2s succeeded; PyTorch raised {want}")
            if f"error: {said}" not in p.stderr and f"error: {want}" not in p.stderr:
                raise Mismatch(f"d2s said {p.stderr.strip()[:300]!r}; PyTorch {want!r}")
            print(f"PASS error {name}")
        except Mismatch as e:
            print(f"FAIL error {name}: {e}")
            failed += 1
    return failed


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    d2s = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "inputs.yaml"), "w", encoding="utf-8") as f:
            f.write("- x: {shape: [1], data: [1.0]}\n")
        failed = (check_exact(d2s, tmp) + check_random(d2s, tmp) + check_forward_draws(d2s, tmp) + check_statistics(d2s, tmp) +
                  check_orthogonal_trunc(d2s, tmp) + check_errors(d2s, tmp))
    print("init_parity: " + ("all passed" if not failed else f"{failed} failed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
