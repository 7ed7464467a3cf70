#!/usr/bin/python3
"""Training parity: d2s's optimizers, losses, schedulers and clipping against PyTorch.

    training_parity.py D2S [--only NAME ...] [--list]

Runs each case under real PyTorch and under `D2S run`, and compares every number the
program prints (rtol 1e-5, atol 1e-6), line by line, the other words exactly. The
cases are:

- every program in samples/training/ (the pattern card's program, the classifier, the
  manual-SGD loop), with a footer that prints every element of `model`'s final
  parameters and, where the sample keeps them, its per-step loss lists;
- a program that calls torch.onnx.export also has the file d2s wrote checked: `d2s run`
  of it gives PyTorch's eager outputs of `model` with d2s's final parameters, on inputs
  that take each side of the forward's `if` (check_onnx_export);
- generated programs (CASES below): a small network trained for 6 steps with one
  optimizer configuration and one loss each, printing the loss of every step and the
  final parameters, so each optimizer and each loss has its own case;
- every program in tests/parity/training/ (parameter groups, zero_grad, CTC loss, ...),
  with the same footer as the samples.

Both sides start from the same numbers: PyTorch's generator is replaced by d2s's
(d2s_random.py, bit for bit) for torch.manual_seed, torch.randn, torch.rand and the
default initialisation of nn.Linear (U(-1/sqrt(fan_in), 1/sqrt(fan_in)), weight then
bias, as d2s draws it). PyTorch 1.13 has no torch.compile; where it is missing it is
taken as the identity, which is what compiling must not change.

Prints `PASS name` or `FAIL name: reason` per case and `N passed, N failed`; exits 1 on
a failure, 2 without PyTorch.
"""

import argparse
import contextlib
import io
import math
import os
import re
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import numpy as np
    import torch
    import yaml
    import torch.nn as nn
except ImportError as e:  # pragma: no cover
    print(f"training_parity.py: needs PyTorch and numpy ({e})", file=sys.stderr)
    sys.exit(2)
from d2s_random import Generator  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "samples", "training")
CASE_FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "training")

FOOTER = """
for name, p in model.named_parameters():
    for v in p.reshape(-1):
        print("param", name, v.item())
"""
LOSS_LISTS = ("eager_losses", "compiled_losses")

TEMPLATE = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, {out})

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


def decay(epoch):
    return 0.9 ** epoch


torch.manual_seed(0)
x = torch.randn(10, 6)
{target}
model = Net()
optimizer = {optimizer}
{scheduler}
losses = []
for step in range(6):
    optimizer.zero_grad({zero_grad})
    out = model(x)
    loss = {loss}
    loss.backward()
    {clip}
    optimizer.step()
    {sched_step}
    losses.append(loss.item())
print("losses", losses)
"""

REGRESSION = "y = torch.randn(10, 1)"
CLASSES = "y = torch.argmax(x[:, :4], dim=1)"
BINARY = "y = (torch.rand(10, 3) > 0.5).float()"

# name: (optimizer, loss, target kind, extras)
OPTIMIZERS = {
    "sgd": "torch.optim.SGD(model.parameters(), lr=0.1)",
    "sgd_momentum": "torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
    "sgd_nesterov_wd": "torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, "
                       "nesterov=True, weight_decay=0.01)",
    "sgd_dampening_maximize": "torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5, "
                              "dampening=0.3, maximize=True)",
    "adam": "torch.optim.Adam(model.parameters())",
    "adam_options": "torch.optim.Adam(model.parameters(), lr=0.01, betas=(0.8, 0.99), eps=1e-6, "
                    "weight_decay=0.1, amsgrad=True)",
    "adamw": "torch.optim.AdamW(model.parameters(), lr=0.01)",
    "adamw_amsgrad": "torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.1, "
                     "amsgrad=True)",
    "rmsprop": "torch.optim.RMSprop(model.parameters())",
    "rmsprop_options": "torch.optim.RMSprop(model.parameters(), lr=0.005, alpha=0.9, "
                       "momentum=0.8, centered=True, weight_decay=0.01)",
    "adagrad": "torch.optim.Adagrad(model.parameters(), lr=0.1)",
    "adagrad_options": "torch.optim.Adagrad(model.parameters(), lr=0.1, lr_decay=0.01, "
                       "weight_decay=0.01, initial_accumulator_value=0.1)",
    "adadelta": "torch.optim.Adadelta(model.parameters())",
    "adadelta_options": "torch.optim.Adadelta(model.parameters(), lr=0.5, rho=0.8, "
                        "weight_decay=0.01)",
}

LOSSES = {
    "mse_module": ("nn.MSELoss()(out, y)", REGRESSION, 1),
    "mse_sum": ("nn.MSELoss(reduction='sum')(out, y)", REGRESSION, 1),
    "mse_functional": ("F.mse_loss(out, y)", REGRESSION, 1),
    "l1_module": ("nn.L1Loss()(out, y)", REGRESSION, 1),
    "l1_none": ("F.l1_loss(out, y, reduction='none').sum()", REGRESSION, 1),
    "smooth_l1_module": ("nn.SmoothL1Loss(beta=0.5)(out, y)", REGRESSION, 1),
    "smooth_l1_functional": ("F.smooth_l1_loss(out, y, reduction='sum')", REGRESSION, 1),
    "cross_entropy_module": ("nn.CrossEntropyLoss()(out, y)", CLASSES, 4),
    "cross_entropy_options": ("nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.5]), "
                              "label_smoothing=0.1)(out, y)", CLASSES, 4),
    "cross_entropy_ignore": ("nn.CrossEntropyLoss(ignore_index=1)(out, y)", CLASSES, 4),
    "cross_entropy_none": ("F.cross_entropy(out, y, reduction='none').mean()", CLASSES, 4),
    "cross_entropy_functional_sum": ("F.cross_entropy(out, y, reduction='sum', "
                                     "label_smoothing=0.2)", CLASSES, 4),
    "nll_module": ("nn.NLLLoss()(F.log_softmax(out, dim=1), y)", CLASSES, 4),
    "nll_weighted": ("F.nll_loss(F.log_softmax(out, dim=1), y, "
                     "weight=torch.tensor([0.5, 1.0, 2.0, 1.0]))", CLASSES, 4),
    "bce_logits_module": ("nn.BCEWithLogitsLoss()(out, y)", BINARY, 3),
    "bce_logits_pos_weight": ("nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5]))"
                              "(out, y)", BINARY, 3),
    "bce_logits_functional": ("F.binary_cross_entropy_with_logits(out, y, reduction='sum', "
                              "weight=torch.tensor([1.0, 0.5, 2.0]))", BINARY, 3),
}


def make_case(optimizer, loss, target, out, scheduler="", sched_step="", clip="", zero_grad=""):
    return TEMPLATE.format(optimizer=optimizer, loss=loss, target=target, out=out,
                           scheduler=scheduler, sched_step=sched_step or "pass",
                           clip=clip or "pass", zero_grad=zero_grad) + FOOTER


def generated_cases():
    cases = {}
    for name, opt in OPTIMIZERS.items():
        cases["optim_" + name] = make_case(opt, "nn.MSELoss()(out, y)", REGRESSION, 1)
    for name, (loss, target, out) in LOSSES.items():
        # SGD, not Adam: Adam's step is about lr whatever the gradient's size, so a
        # gradient that is zero up to float rounding (an L1 bias whose signs cancel) would
        # move a parameter by lr on one side and not on the other.
        cases["loss_" + name] = make_case(
            "torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)", loss, target, out)
    sgd = "torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)"
    mse = "nn.MSELoss()(out, y)"
    cases["clip_grad_norm"] = make_case(
        sgd, mse, REGRESSION, 1,
        clip="print('norm', torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5).item())")
    cases["clip_grad_norm_inf"] = make_case(
        sgd, mse, REGRESSION, 1,
        clip="nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1, norm_type=float('inf'))")
    cases["clip_grad_value"] = make_case(
        sgd, mse, REGRESSION, 1, clip="torch.nn.utils.clip_grad_value_(model.parameters(), 0.05)")
    cases["step_lr"] = make_case(
        sgd, mse, REGRESSION, 1,
        scheduler="scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)",
        sched_step="scheduler.step()")
    cases["lambda_lr"] = make_case(
        "torch.optim.Adam(model.parameters(), lr=0.05)", mse, REGRESSION, 1,
        scheduler="scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, decay)",
        sched_step="scheduler.step()\n    print('lr', scheduler.get_last_lr())")
    cases["zero_grad_set_to_none"] = make_case(sgd, mse, REGRESSION, 1,
                                               zero_grad="set_to_none=True")
    return cases


def sample_cases(folder=SAMPLES, prefix="sample_"):
    cases = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".py"):
            with open(os.path.join(folder, f)) as fh:
                text = fh.read()
            footer = FOOTER
            for lst in LOSS_LISTS:
                if lst in text:
                    footer += f'print("{lst}", {lst})\n'
            cases[prefix + f[:-3]] = text + footer
    return cases


# ---------------------------------------------------------------- PyTorch with d2s's RNG

class D2sRandom:
    """torch.manual_seed / randn / rand and nn.Linear's initialisation from d2s's generator."""

    def __init__(self):
        self.gen = Generator(0)

    def manual_seed(self, seed):
        self.gen = Generator(int(seed))

    def _shape(self, size):
        if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
            return tuple(size[0])
        return tuple(size)

    def randn(self, *size, **kw):
        shape = self._shape(size)
        n = int(np.prod(shape)) if shape else 1
        data = np.array([self.gen.normal() for _ in range(n)], dtype=np.float32)
        return torch.from_numpy(data.reshape(shape)).requires_grad_(kw.get("requires_grad", False))

    def rand(self, *size, **kw):
        shape = self._shape(size)
        n = int(np.prod(shape)) if shape else 1
        data = np.array([self.gen.uniform() for _ in range(n)], dtype=np.float32)
        return torch.from_numpy(data.reshape(shape)).requires_grad_(kw.get("requires_grad", False))

    def uniform_param(self, param, fan_in):
        bound = np.float32(1.0 / math.sqrt(fan_in)) if fan_in > 0 else np.float32(0)
        n = param.numel()
        u = np.array([self.gen.uniform() for _ in range(n)], dtype=np.float32)
        vals = (np.float32(2.0) * u - np.float32(1.0)) * bound
        with torch.no_grad():
            param.copy_(torch.from_numpy(vals.reshape(tuple(param.shape))))


@contextlib.contextmanager
def d2s_rng():
    rng = D2sRandom()
    saved = (torch.manual_seed, torch.randn, torch.rand, nn.Linear.reset_parameters,
             getattr(torch, "compile", None))

    def linear_reset(self):
        rng.uniform_param(self.weight, self.in_features)
        if self.bias is not None:
            rng.uniform_param(self.bias, self.in_features)

    torch.manual_seed, torch.randn, torch.rand = rng.manual_seed, rng.randn, rng.rand
    nn.Linear.reset_parameters = linear_reset
    if saved[4] is None:
        torch.compile = lambda fn=None, **kw: fn if fn is not None else (lambda f: f)
    try:
        yield
    finally:
        torch.manual_seed, torch.randn, torch.rand, nn.Linear.reset_parameters = saved[:4]
        if saved[4] is None:
            del torch.compile


def run_torch(text, name, cwd):
    """PyTorch's printed text and the program's globals; run in `cwd` (the files it writes)."""
    out = io.StringIO()
    scope = {"__name__": "__main__"}
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with d2s_rng(), contextlib.redirect_stdout(out), warnings.catch_warnings():
            # torch.onnx.export traces: its warnings about the traced `if` are expected.
            warnings.simplefilter("ignore", torch.jit.TracerWarning)
            exec(compile(text, name + ".py", "exec"), scope)
    finally:
        os.chdir(here)
    return out.getvalue(), scope


# ---------------------------------------------------------------- torch.onnx.export

EXPORT_FILE = re.compile(r"torch\.onnx\.export\([^\"']*[\"']([^\"']+\.onnx)[\"']")


def check_onnx_export(d2s, text, torch_scope, d2s_stdout, d2s_cwd):
    """The file the program's torch.onnx.export call wrote under d2s (by the parse route)
    must give the model's eager outputs: PyTorch's `model` with d2s's final parameters
    (the footer's lines, exact float32 values) in eval mode, on inputs that take each
    side of the forward's `if`, and at another batch size when dynamic_axes frees it.
    Returns a note on PyTorch's own file (a trace) run the same way by d2s."""
    path = os.path.join(d2s_cwd, EXPORT_FILE.search(text).group(1))
    if not os.path.exists(path):
        raise Mismatch(f"d2s wrote no {os.path.basename(path)}")
    model = torch_scope["model"]
    params = dict(model.named_parameters())
    values = {}
    for line in d2s_stdout.splitlines():
        if line.startswith("param "):
            _, name, v = line.split()
            values.setdefault(name, []).append(float(v))
    with torch.no_grad():
        for name, p in params.items():
            p.copy_(torch.tensor(values[name], dtype=torch.float32).reshape(p.shape))
    model.eval()
    rng = np.random.default_rng(7)
    batches = [1, 3] if "dynamic_axes" in text else [1]
    sets = []
    for b in batches:
        sets.append(rng.standard_normal((b, 10)).astype(np.float32))   # mean <= 0.5
        sets.append((rng.random((b, 10)) + 0.5).astype(np.float32))   # mean > 0.5
    inputs = os.path.join(d2s_cwd, "onnx_check.inputs.yaml")
    with open(inputs, "w") as fh:
        for x in sets:
            fh.write(f"- input: {{shape: {list(x.shape)}, data: {x.reshape(-1).tolist()}}}\n")

    def run_file(onnx_path):
        out = os.path.join(d2s_cwd, "onnx_check.out.yaml")
        p = subprocess.run([d2s, "run", onnx_path, "--inputs", inputs, "-o", out],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            return None, p.stderr.strip()[:400]
        with open(out) as fh:
            doc = yaml.safe_load(fh)
        return [np.array(o["outputs"][0]["data"], dtype=np.float32).reshape(-1) for o in doc], ""

    got, err = run_file(path)
    if got is None:
        raise Mismatch(f"d2s run {os.path.basename(path)}: {err}")
    wrong_torch = []
    torch_file = os.path.join(torch_scope["__cwd__"], os.path.basename(path))
    torch_got, _ = run_file(torch_file) if os.path.exists(torch_file) else (None, "")
    for i, x in enumerate(sets):
        with torch.no_grad():
            want = model(torch.from_numpy(x)).numpy().reshape(-1)
        if not np.allclose(got[i], want, rtol=1e-5, atol=1e-6):
            raise Mismatch(f"{os.path.basename(path)} on input {i} (batch {x.shape[0]}): "
                           f"d2s's file gives {got[i].tolist()}, eager {want.tolist()}")
        # PyTorch's file has PyTorch's weights: close to d2s's, not bit-equal.
        if torch_got is not None and not np.allclose(torch_got[i], want, rtol=1e-3, atol=1e-4):
            wrong_torch.append(i)
    return (f"{len(sets)} input sets; torch.onnx.export's file (a trace) wrong on sets "
            f"{wrong_torch or 'none'}" if torch_got is not None else f"{len(sets)} input sets")


# ---------------------------------------------------------------- comparing

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")


class Mismatch(Exception):
    pass


def compare_text(want, got):
    wl, gl = want.splitlines(), got.splitlines()
    if len(wl) != len(gl):
        raise Mismatch(f"{len(gl)} printed lines, PyTorch printed {len(wl)}")
    worst = 0.0
    for i, (w, g) in enumerate(zip(wl, gl)):
        wn, gn = NUMBER.findall(w), NUMBER.findall(g)
        if NUMBER.sub("#", w) != NUMBER.sub("#", g) or len(wn) != len(gn):
            raise Mismatch(f"line {i + 1}: d2s {g!r}, PyTorch {w!r}")
        for a, b in zip(wn, gn):
            a, b = float(a), float(b)
            if not np.isclose(b, a, rtol=1e-5, atol=1e-6, equal_nan=True):
                raise Mismatch(f"line {i + 1}: d2s {g!r}, PyTorch {w!r}")
            if a != b and abs(a) > 1e-3:  # smaller values pass by atol
                worst = max(worst, abs(a - b) / abs(a))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("d2s")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    args.d2s = os.path.abspath(args.d2s)  # each case runs d2s in a folder of its own
    cases = {**sample_cases(), **generated_cases(), **sample_cases(CASE_FILES, "case_")}
    if args.list:
        print("\n".join(cases))
        return 0
    if args.only:
        cases = {k: v for k, v in cases.items() if k in args.only}
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in cases.items():
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as fh:
                fh.write(text)
            # Each side runs in a folder of its own: the files a program writes
            # (torch.onnx.export's "model.onnx") land there.
            torch_cwd, d2s_cwd = os.path.join(tmp, name + ".torch"), os.path.join(tmp, name + ".d2s")
            os.makedirs(torch_cwd)
            os.makedirs(d2s_cwd)
            try:
                want, scope = run_torch(text, name, torch_cwd)
                scope["__cwd__"] = torch_cwd
                p = subprocess.run([args.d2s, "run", path, "--entry", "<module>", "-o",
                                    os.path.join(tmp, name + ".out.yaml")], capture_output=True, text=True,
                                   timeout=300, cwd=d2s_cwd)
                if p.returncode != 0:
                    raise Mismatch(f"d2s exit {p.returncode}: {p.stderr.strip()[:600]}")
                worst = compare_text(want, p.stdout)
                note = ""
                if EXPORT_FILE.search(text):
                    note = "; ONNX file right on " + check_onnx_export(args.d2s, text, scope, p.stdout,
                                                                         d2s_cwd)
                print(f"PASS {name} (largest relative difference {worst:.2e}{note})")
                passed += 1
            except Exception as e:  # noqa: BLE001 - every failure is reported per case
                print(f"FAIL {name}: {type(e).__name__ + ': ' if not isinstance(e, Mismatch) else ''}{e}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
