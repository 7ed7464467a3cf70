#!/usr/bin/python3
"""The live PyTorch parity suite for d2s.

    parity.py D2S [--mode eager[,trace,parse]] [--samples DIR] [--only NAME ...]
    parity.py D2S --errors [--samples DIR]

Parity (the default): for every samples/<name>.py and every input set of
samples/<name>.inputs.yaml, runs the program under real PyTorch and under
`D2S run ... --mode MODE`, and compares the results: same structure, shapes and
dtypes, values within rtol 1e-5 / atol 1e-6 (numpy.allclose). In eager mode the
lines the program prints must match too (--stdout off to skip).

The entry is picked as d2s picks it: the last top-level def or class. A class is
instantiated with no arguments after torch.manual_seed(0); its state_dict goes to
a weights file passed to d2s with --weights, so both sides use the same parameters.
Modules stay in training mode, as PyTorch creates them. `fill:` inputs are
reproduced with d2s's own generator (d2s_random.py, a port of docs/random.md).

Errors (--errors): runs d2s on every samples/errors/<name>.py (inputs from
<name>.inputs.yaml when present, else none) and checks it against
<name>.expect.yaml: the exit code, a `file:line:col: error:` line at the expected
place, a caret under the expected column, and the expected message substrings.

Prints `PASS name[set]` or `FAIL name[set]: reason` per case and finally
`N passed, N failed`; exits 1 on any failure, 2 when PyTorch is missing.
"""

import argparse
import ast
import contextlib
import importlib.util
import io
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SAMPLES = os.path.normpath(os.path.join(HERE, "..", "..", "samples"))
RTOL = 1e-5
ATOL = 1e-6
TIMEOUT = 120  # seconds per d2s run

try:
    import numpy as np
    import torch
    import yaml
except ImportError as e:  # CI must run this suite, never skip it
    print(f"parity.py: cannot import {e.name}: {e}. Install python3-torch, python3-numpy "
          "and python3-yaml (apt-get install python3-torch python3-yaml) and run with "
          "/usr/bin/python3.", file=sys.stderr)
    sys.exit(2)

sys.path.insert(0, HERE)


class Mismatch(Exception):
    pass


# ---------------------------------------------------------------- input files

class Loader(yaml.SafeLoader):
    """PyYAML's safe loader reading floats as YAML 1.2 does (docs/files.md): `1e-3`
    is a float, not a string."""


Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                   |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                   |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
                   |[-+]?\.(?:inf|Inf|INF)
                   |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=Loader)


DTYPES = {"float32": torch.float32, "int64": torch.int64, "bool": torch.bool}


def load_sets(path):
    """The input sets of a file: a list of dicts (a file holding one map gives one)."""
    doc = load_yaml(path)
    if doc is None:
        return [{}]
    if isinstance(doc, dict):
        return [doc]
    if isinstance(doc, list) and all(isinstance(s, dict) for s in doc):
        return doc
    raise ValueError(f"{path}: expected a map or a list of maps")


def is_tensor_spec(v):
    return isinstance(v, dict) and ("shape" in v or "data" in v or "fill" in v)


def nested_shape(data):
    shape = []
    while isinstance(data, list):
        shape.append(len(data))
        data = data[0] if data else None
    return shape


def flatten(data):
    if isinstance(data, list):
        out = []
        for d in data:
            out.extend(flatten(d))
        return out
    return [data]


def make_tensor(spec, name, set_index, seed):
    shape = [int(s) for s in spec["shape"]] if "shape" in spec else nested_shape(spec["data"])
    dtype = DTYPES[spec.get("dtype", "float32")]
    n = math.prod(shape)
    if "fill" in spec:
        import d2s_random
        fill_seed = spec.get("seed")
        if fill_seed is None:
            fill_seed = d2s_random.fill_seed(seed, set_index, name)
        values = d2s_random.fill(spec["fill"], n, int(fill_seed))
        t = torch.tensor(values, dtype=torch.float32).reshape(shape).to(dtype)
    else:
        values = flatten(spec["data"])
        if len(values) != n:
            raise ValueError(f"{name}: {len(values)} values for shape {shape}")
        t = torch.tensor(values, dtype=dtype).reshape(shape)
    if spec.get("requires_grad", False):
        t.requires_grad_(True)
    return t


def make_value(v, name, set_index, seed):
    if is_tensor_spec(v):
        return make_tensor(v, name, set_index, seed)
    if isinstance(v, list):
        return [make_value(x, name, set_index, seed) for x in v]
    return v


def explicit_seeds(inputs, set_index, seed):
    """The set as d2s would see it at `set_index` of its file, written as a file of
    its own: `fill:` specs without a seed get the one d2s would derive."""
    out = {}
    for name, v in inputs.items():
        if is_tensor_spec(v) and "fill" in v and v.get("seed") is None:
            import d2s_random
            v = dict(v, seed=d2s_random.fill_seed(seed, set_index, name))
        out[name] = v
    return out


# ---------------------------------------------------------------- the programs

def entry_of(path):
    """(kind, name): the last top-level def or class, as d2s picks it by default;
    ("module", "<module>") for a script with no def or class."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    last = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            last = node
    if last is None:
        return "module", "<module>"
    return ("class" if isinstance(last, ast.ClassDef) else "function"), last.name


def import_sample(path):
    name = "d2s_sample_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_torch(path, inputs, set_index, seed):
    """Runs the sample's entry under PyTorch: (result, stdout, state_dict or None)."""
    kind, name = entry_of(path)
    module = import_sample(path)
    args = {k: make_value(v, k, set_index, seed) for k, v in inputs.items()}
    state = None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if kind == "class":
            torch.manual_seed(0)
            model = getattr(module, name)()
            state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            result = model(**args)
        else:
            result = getattr(module, name)(**args)
    return result, out.getvalue(), state


def weights_yaml(state):
    doc = {}
    for k, t in state.items():
        t = t.detach().contiguous()
        entry = {"shape": list(t.shape)}
        if t.dtype == torch.bool:
            entry["dtype"] = "bool"
        elif t.dtype in (torch.int64, torch.int32):
            entry["dtype"] = "int64"
        else:
            t = t.to(torch.float32)
        entry["data"] = t.reshape(-1).tolist()
        doc[k] = entry
    return doc


# ---------------------------------------------------------------- comparing

def expected_outputs(result):
    """d2s's `outputs:` list for a return value: a tuple gives its items, None none."""
    if result is None:
        return []
    if isinstance(result, tuple):
        return list(result)
    return [result]


def dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def compare(expected, got, where):
    if isinstance(expected, torch.Tensor):
        if not (isinstance(got, dict) and "shape" in got and "data" in got):
            raise Mismatch(f"{where}: expected a tensor, got {short(got)}")
        shape = list(expected.shape)
        if list(got["shape"]) != shape:
            raise Mismatch(f"{where}: shape {got['shape']}, PyTorch {shape}")
        want_dtype = dtype_name(expected)
        if got.get("dtype", "float32") != want_dtype:
            raise Mismatch(f"{where}: dtype {got.get('dtype')}, PyTorch {want_dtype}")
        data = flatten(got["data"])
        if len(data) != expected.numel():
            raise Mismatch(f"{where}: {len(data)} values for shape {shape}")
        e = expected.detach().reshape(-1)
        if expected.dtype == torch.float32:
            a = np.array([float(v) for v in data], dtype=np.float64)
            b = e.to(torch.float64).numpy()
            if not np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True):
                i = int(np.argmax(np.abs(a - b) - RTOL * np.abs(b)))
                raise Mismatch(f"{where}: values differ, e.g. [{i}] d2s {a[i]!r} vs "
                               f"PyTorch {b[i]!r} (max abs diff {np.nanmax(np.abs(a - b)):.3g})")
        else:
            if [type(v) for v in data] != [type(v) for v in e.tolist()] or data != e.tolist():
                raise Mismatch(f"{where}: values {short(data)}, PyTorch {short(e.tolist())}")
        return
    if isinstance(expected, (tuple, list)):
        if not isinstance(got, list) or len(got) != len(expected):
            raise Mismatch(f"{where}: expected a list of {len(expected)}, got {short(got)}")
        for i, (e, g) in enumerate(zip(expected, got)):
            compare(e, g, f"{where}[{i}]")
        return
    if expected is None:
        if got is not None:
            raise Mismatch(f"{where}: expected null, got {short(got)}")
        return
    if isinstance(expected, bool) or isinstance(expected, int):
        if type(got) is not type(expected) or got != expected:
            raise Mismatch(f"{where}: {short(got)}, PyTorch {expected!r}")
        return
    if isinstance(expected, float):
        if type(got) is not float:
            raise Mismatch(f"{where}: {short(got)} ({type(got).__name__}), PyTorch float {expected!r}")
        if not np.allclose(got, expected, rtol=RTOL, atol=ATOL, equal_nan=True):
            raise Mismatch(f"{where}: {got!r}, PyTorch {expected!r}")
        return
    raise Mismatch(f"{where}: PyTorch returned a {type(expected).__name__}, which the suite "
                   "cannot compare")


def short(v, n=80):
    s = repr(v)
    return s if len(s) <= n else s[: n - 3] + "..."


def first_lines(text, n=3):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[:n]) if lines else "(no message)"


# ---------------------------------------------------------------- d2s

def run_d2s(d2s, args, cwd):
    try:
        p = subprocess.run([d2s] + args, cwd=cwd, capture_output=True, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Mismatch(f"d2s did not finish within {TIMEOUT} s: {' '.join(args)}")
    return p


def parity_case(d2s, sample, set_index, inputs, mode, seed, check_stdout, tmp):
    expected, torch_stdout, state = run_torch(sample, inputs, set_index, seed)

    in_path = os.path.join(tmp, "inputs.yaml")
    with open(in_path, "w", encoding="utf-8") as f:
        yaml.safe_dump(explicit_seeds(inputs, set_index, seed), f, default_flow_style=None)
    out_path = os.path.join(tmp, "outputs.yaml")
    if os.path.exists(out_path):
        os.remove(out_path)
    args = ["run", sample, "--inputs", in_path, "--mode", mode, "-o", out_path]
    if seed:
        args += ["--seed", str(seed)]
    if state is not None:
        w_path = os.path.join(tmp, "weights.yaml")
        with open(w_path, "w", encoding="utf-8") as f:
            yaml.safe_dump(weights_yaml(state), f, default_flow_style=None)
        args += ["--weights", w_path]
    p = run_d2s(d2s, args, tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s exited {p.returncode}: {first_lines(p.stderr)}")
    doc = load_yaml(out_path)
    if isinstance(doc, list) and len(doc) == 1:  # a list file gives a list of results
        doc = doc[0]
    if not isinstance(doc, dict) or "outputs" not in doc:
        raise Mismatch(f"d2s's output has no `outputs:` map: {short(doc)}")
    compare(expected_outputs(expected), doc["outputs"], "outputs")
    if check_stdout:
        want = torch_stdout.splitlines()
        got = p.stdout.splitlines()
        if want != got:
            for i in range(max(len(want), len(got))):
                w = want[i] if i < len(want) else "(nothing)"
                g = got[i] if i < len(got) else "(nothing)"
                if w != g:
                    raise Mismatch(f"printed line {i + 1}: d2s {g!r}, PyTorch {w!r}")


def samples_in(directory, only):
    names = sorted(f[:-3] for f in os.listdir(directory) if f.endswith(".py"))
    if only:
        missing = [n for n in only if n not in names]
        if missing:
            raise SystemExit(f"parity.py: no such sample: {', '.join(missing)}")
        names = [n for n in names if n in only]
    return names


def parity(args):
    passed = failed = 0
    modes = [m for spec in args.mode for m in spec.split(",") if m]
    for mode in modes:
        for name in samples_in(args.samples, args.only):
            sample = os.path.join(args.samples, name + ".py")
            inputs_path = os.path.join(args.samples, name + ".inputs.yaml")
            label = name if len(modes) == 1 else f"{mode}:{name}"
            try:
                sets = load_sets(inputs_path) if os.path.exists(inputs_path) else [{}]
            except Exception as e:  # a broken inputs file fails its sample, not the suite
                print(f"FAIL {label}[*]: {inputs_path}: {e}")
                failed += 1
                continue
            for i, inputs in enumerate(sets):
                check_stdout = args.stdout == "check" or (args.stdout == "eager" and mode == "eager")
                try:
                    with tempfile.TemporaryDirectory(prefix="d2s-parity-") as tmp:
                        parity_case(args.d2s, sample, i, inputs, mode, args.seed, check_stdout, tmp)
                    print(f"PASS {label}[{i}]")
                    passed += 1
                except Mismatch as e:
                    print(f"FAIL {label}[{i}]: {e}")
                    failed += 1
                except Exception as e:  # PyTorch or the suite itself
                    print(f"FAIL {label}[{i}]: {type(e).__name__}: {e}")
                    failed += 1
                sys.stdout.flush()
    return passed, failed


# ---------------------------------------------------------------- error programs

CARET = re.compile(r"^\s*\^[~^]*\s*$")


def check_error(d2s, path, mode, tmp):
    base = os.path.basename(path)
    with open(path[:-3] + ".expect.yaml", encoding="utf-8") as f:
        expect = yaml.safe_load(f)
    line, col = int(expect["line"]), int(expect["col"])
    inputs = path[:-3] + ".inputs.yaml"
    if not os.path.exists(inputs):
        inputs = os.path.join(tmp, "empty.inputs.yaml")
        with open(inputs, "w") as f:
            f.write("{}\n")
    p = run_d2s(d2s, ["run", path, "--inputs", inputs, "--mode", mode,
                      "-o", os.path.join(tmp, "outputs.yaml")], tmp)
    err = p.stderr
    if p.returncode != int(expect.get("exit", 2)):
        raise Mismatch(f"exit {p.returncode}, expected {expect.get('exit', 2)}: {first_lines(err)}")
    lines = err.splitlines()
    head = re.compile(r"(^|/)" + re.escape(base) + r":(\d+):(\d+): error:")
    at = [(i, m) for i, l in enumerate(lines) for m in [head.search(l)] if m]
    if not at:
        raise Mismatch(f"no `{base}:LINE:COL: error:` line in: {first_lines(err)}")
    i, m = at[0]
    if (int(m.group(2)), int(m.group(3))) != (line, col):
        raise Mismatch(f"error at {m.group(2)}:{m.group(3)}, expected {line}:{col}: {lines[i].strip()}")
    low = err.lower()
    for s in expect.get("message_contains", []):
        if s.lower() not in low:
            raise Mismatch(f"message lacks {s!r}: {first_lines(err, 4)}")
    with open(path, encoding="utf-8") as f:
        src = f.read().splitlines()[line - 1]
    for j in range(i + 1, len(lines) - 1):
        if not CARET.match(lines[j + 1]):
            continue
        shown = lines[j]
        if src.strip() and shown.rstrip().endswith(src.strip()):
            indent = len(src) - len(src.lstrip())
            start = len(shown.rstrip()) - len(src.strip())  # where the code's text begins
            caret_col = lines[j + 1].index("^") - start + indent + 1
            if caret_col != col:
                raise Mismatch(f"the caret is under column {caret_col}, expected {col}")
            return
    raise Mismatch("no source line with a caret under it after the error line")


def errors(args):
    passed = failed = 0
    directory = os.path.join(args.samples, "errors")
    for name in samples_in(directory, args.only):
        path = os.path.join(directory, name + ".py")
        if not os.path.exists(path[:-3] + ".expect.yaml"):
            print(f"FAIL {name}: no {name}.expect.yaml")
            failed += 1
            continue
        try:
            with tempfile.TemporaryDirectory(prefix="d2s-errors-") as tmp:
                check_error(args.d2s, path, args.mode[0].split(",")[0], tmp)
            print(f"PASS {name}")
            passed += 1
        except Mismatch as e:
            print(f"FAIL {name}: {e}")
            failed += 1
        except Exception as e:
            print(f"FAIL {name}: {type(e).__name__}: {e}")
            failed += 1
        sys.stdout.flush()
    return passed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("d2s", help="the d2s program")
    ap.add_argument("--mode", action="append", default=None,
                    help="eager (default), trace or parse; repeat or comma-separate for several")
    ap.add_argument("--errors", action="store_true", help="check samples/errors instead")
    ap.add_argument("--samples", default=DEFAULT_SAMPLES, help="the samples folder")
    ap.add_argument("--only", action="append", default=[], help="only this sample (repeatable)")
    ap.add_argument("--seed", type=int, default=0, help="d2s's --seed (for fill: without seed:)")
    ap.add_argument("--stdout", choices=["eager", "check", "off"], default="eager",
                    help="compare printed lines: in eager mode only (default), always, never")
    args = ap.parse_args()
    args.mode = args.mode or ["eager"]
    args.d2s = os.path.abspath(args.d2s)
    args.samples = os.path.abspath(args.samples)
    if not os.access(args.d2s, os.X_OK):
        print(f"parity.py: {args.d2s} is not an executable d2s", file=sys.stderr)
        return 2
    passed, failed = errors(args) if args.errors else parity(args)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
