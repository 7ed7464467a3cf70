#!/usr/bin/python3
"""scripts/state_dict_to_yaml.py against PyTorch (ctest state_dict_to_yaml):

    state_dict_to_yaml_test.py D2S SOURCE_DIR

PyTorch builds a model with a float and an int64 buffer and saves its state_dict
with torch.save; the script converts the .pt file; `d2s run --weights` of the same
model in eager, trace and parse mode must give PyTorch's output (rtol 1e-5). The
--class form (a fresh model after torch.manual_seed) is checked the same way, and a
.py source without --class is refused. Exits 1 on a failure, 2 without PyTorch.
"""

import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import torch
    import yaml
except ImportError as e:
    print(f"state_dict_to_yaml_test.py: cannot import {e.name}; run with /usr/bin/python3 "
          "(python3-torch, python3-numpy, python3-yaml)", file=sys.stderr)
    sys.exit(2)

MODEL = '''import torch
import torch.nn as nn


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)
        self.register_buffer("offset", torch.zeros(3))
        self.register_buffer("scale", torch.tensor(1))

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        if h.sum() > 0:
            h = h * 2.0
        return self.fc2(h) * self.scale + self.offset
'''

X = [[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, -2.0]]


def load_model(path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("quickstart_model", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["quickstart_model"] = module
    spec.loader.exec_module(module)
    return module


def d2s_output(d2s, tmp, weights, mode):
    out = os.path.join(tmp, f"out_{mode}.yaml")
    p = subprocess.run([d2s, "run", "model.py", "--inputs", "in.yaml", "--weights", weights,
                        "--mode", mode, "-o", out], cwd=tmp, capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"d2s run --mode {mode} exited {p.returncode}: {p.stderr.strip()}")
    with open(out, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    t = doc["outputs"][0]
    return np.array(t["data"], dtype=np.float64).reshape(t["shape"])


def check(d2s, tmp, weights, expected, label):
    failed = 0
    for mode in ("eager", "trace", "parse"):
        try:
            got = d2s_output(d2s, tmp, weights, mode)
            want = expected.detach().to(torch.float64).numpy()
            if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5, atol=1e-6):
                raise AssertionError(f"d2s {got.tolist()}, PyTorch {want.tolist()}")
            print(f"PASS {label} {mode}")
        except AssertionError as e:
            print(f"FAIL {label} {mode}: {e}")
            failed += 1
    return failed


def main():
    d2s, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    script = os.path.join(source, "scripts", "state_dict_to_yaml.py")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="d2s-state-dict-") as tmp:
        with open(os.path.join(tmp, "model.py"), "w", encoding="utf-8") as f:
            f.write(MODEL)
        with open(os.path.join(tmp, "in.yaml"), "w", encoding="utf-8") as f:
            f.write(f"x: {{shape: [2, 4], data: {sum(X, [])}}}\n")
        module = load_model(os.path.join(tmp, "model.py"))
        x = torch.tensor(X)

        # A trained-looking model: non-default buffers, saved as a .pt state_dict.
        torch.manual_seed(123)
        model = module.TinyNet()
        with torch.no_grad():
            model.offset.copy_(torch.tensor([0.5, -0.25, 1.0]))
            model.scale.fill_(3)
        torch.save(model.state_dict(), os.path.join(tmp, "w.pt"))
        subprocess.run([sys.executable, script, "w.pt", "-o", "w.yaml"], cwd=tmp, check=True)
        failed += check(d2s, tmp, "w.yaml", model(x), "pt")

        # The --class form: the model as PyTorch initialises it after manual_seed(5).
        subprocess.run([sys.executable, script, "model.py", "--class", "TinyNet", "--seed", "5",
                        "-o", "w2.yaml"], cwd=tmp, check=True)
        torch.manual_seed(5)
        failed += check(d2s, tmp, "w2.yaml", module.TinyNet()(x), "class")

        p = subprocess.run([sys.executable, script, "model.py", "-o", "w3.yaml"], cwd=tmp,
                           capture_output=True, text=True)
        if p.returncode == 0 or "--class" not in p.stderr:
            print(f"FAIL refusal: exit {p.returncode}, stderr {p.stderr.strip()!r}")
            failed += 1
        else:
            print("PASS refusal")
    print("state_dict_to_yaml: " + ("FAILED" if failed else "all passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
