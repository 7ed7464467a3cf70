"""The helpers the parity suites share (parity.py and its modes, grad_parity.py):
reading input sets (YAML 1.2 floats, `fill:` values from d2s's generator), making
PyTorch tensors and running a sample's entry under PyTorch, writing input and weight
files for d2s, running d2s, and comparing its outputs with PyTorch's (same structure,
shapes and dtypes, values within rtol 1e-5 / atol 1e-6, numpy.allclose).

Importing it exits 2 when PyTorch, numpy or PyYAML is missing: CI must run the
suites, never skip them.
"""

import ast
import contextlib
import importlib.util
import io
import math
import os
import re
import subprocess
import sys

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


class Skipped(Exception):
    """A case with nothing to compare against, said why (printed as SKIP, counted
    apart from passes)."""


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
    # Registered so that torch.jit.script can find the source of its classes.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def script_assigned_names(tree):
    """The names a script's straight-line top-level statements assign (also inside a
    top-level `with`; not those assigned only inside an if, for or while), in the order
    they first appear as a target in the source (parse/script_names.h's rule)."""
    names = []

    def add(target):
        if isinstance(target, ast.Name):
            if target.id not in names:
                names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                add(t)
        elif isinstance(target, ast.Starred):
            add(target.value)

    def visit(body):
        for s in body:
            if isinstance(s, ast.Assign):
                for t in s.targets:
                    add(t)
            elif isinstance(s, ast.AugAssign):
                add(s.target)
            elif isinstance(s, ast.AnnAssign):
                if s.value is not None:
                    add(s.target)
            elif isinstance(s, ast.With):
                for item in s.items:
                    if item.optional_vars is not None:
                        add(item.optional_vars)
                visit(s.body)

    visit(tree.body)
    return names


def run_script(path):
    """Runs a script (the <module> entry) as `python path` would: its outputs are the
    values of the names it assigns that hold a tensor or a Python number at the end
    (docs/language.md, "Scripts"), as a tuple."""
    import runpy
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    scope = runpy.run_path(path, run_name="__main__")
    values = []
    for name in script_assigned_names(tree):
        v = scope.get(name)
        if name in scope and isinstance(v, (torch.Tensor, bool, int, float)):
            values.append(v)
    return tuple(values)


def run_torch(path, inputs, set_index, seed):
    """Runs the sample's entry under PyTorch: (result, stdout, state_dict or None)."""
    kind, name = entry_of(path)
    module = import_sample(path) if kind != "module" else None  # a script runs once, below
    args = {k: make_value(v, k, set_index, seed) for k, v in inputs.items()}
    state = None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if kind == "class":
            torch.manual_seed(0)
            model = getattr(module, name)()
            state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            result = model(**args)
        elif kind == "module":
            if args:
                raise Mismatch("a script (<module>) takes no inputs")
            result = run_script(path)
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


def write_set(tmp, fname, inputs, set_index, seed):
    """One input set as a file of its own, `fill:` seeds as d2s derives them at
    `set_index` of the sample's file."""
    path = os.path.join(tmp, fname)
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(explicit_seeds(inputs, set_index, seed), f, default_flow_style=None)
    return path


def write_weights(tmp, state):
    path = os.path.join(tmp, "weights.yaml")
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(weights_yaml(state), f, default_flow_style=None)
    return path


def d2s_outputs(d2s, args, tmp):
    """Runs `d2s ARGS -o OUT` in tmp: (process, the `outputs:` list or None when d2s
    failed)."""
    out_path = os.path.join(tmp, "outputs.yaml")
    if os.path.exists(out_path):
        os.remove(out_path)
    p = run_d2s(d2s, args + ["-o", out_path], tmp)
    if p.returncode != 0:
        return p, None
    doc = load_yaml(out_path)
    if isinstance(doc, list) and len(doc) == 1:  # a list file gives a list of results
        doc = doc[0]
    if not isinstance(doc, dict) or "outputs" not in doc:
        raise Mismatch(f"d2s's output has no `outputs:` map: {short(doc)}")
    return p, doc["outputs"]


def check_d2s_outputs(d2s, args, expected, state, seed, tmp):
    """Runs d2s with args, plus --seed and --weights when the seed or PyTorch's state
    asks for them, and compares its outputs with PyTorch's result `expected`, raising
    Mismatch when they differ. Returns the d2s process."""
    if seed:
        args = args + ["--seed", str(seed)]
    if state is not None:
        args = args + ["--weights", write_weights(tmp, state)]
    p, outputs = d2s_outputs(d2s, args, tmp)
    if outputs is None:
        raise Mismatch(f"d2s exited {p.returncode}: {first_lines(p.stderr)}")
    compare(expected_outputs(expected), outputs, "outputs")
    return p


def print_fail(label, e):
    """The FAIL line of a case that raised e: a Mismatch says what differs; any other
    exception (PyTorch's or the suite's own) is named too."""
    if isinstance(e, Mismatch):
        print(f"FAIL {label}: {e}")
    else:
        print(f"FAIL {label}: {type(e).__name__}: {e}")


def samples_in(directory, only):
    names = sorted(f[:-3] for f in os.listdir(directory) if f.endswith(".py"))
    if only:
        missing = [n for n in only if n not in names]
        if missing:
            raise SystemExit(f"parity.py: no such sample: {', '.join(missing)}")
        names = [n for n in names if n in only]
    return names



def input_sets(inputs_path):
    """A sample's input sets: those of its inputs file, one empty set without one."""
    return load_sets(inputs_path) if os.path.exists(inputs_path) else [{}]
