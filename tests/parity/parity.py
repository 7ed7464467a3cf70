#!/usr/bin/python3
"""The live PyTorch parity suite for d2s.

    parity.py D2S [--mode eager[,trace,parse,trace_noguards]] [--samples DIR] [--only NAME ...]
    parity.py D2S --structure [--samples DIR] [--only NAME ...]
    parity.py D2S --errors [--samples DIR]

Parity (the default): for every samples/<name>.py and every input set of
samples/<name>.inputs.yaml, runs the program under real PyTorch and under
`D2S run ... --mode MODE`, and compares the results: same structure, shapes and
dtypes, values within rtol 1e-5 / atol 1e-6 (numpy.allclose). Modes:

- eager: d2s's interpreter against PyTorch eager; printed lines must match too.
- parse: the parsed graph (`--mode parse`) against PyTorch eager; printed lines must
  match too (the parse route keeps print as prim::Print).
- trace: the traced graph, traced on the set itself (`--trace-inputs` = that set),
  against PyTorch eager. Prints are not compared: a trace drops print, as
  torch.jit.trace's graph does.
- trace_noguards: the plain trace against torch.jit.trace. PyTorch traces the entry
  on set 0 with torch.jit.trace and runs that graph on every set; d2s runs `--mode
  trace --no-guards --trace-inputs SET0` on every set. Wrong answers must be the same
  wrong answers. Scalar (int/float/bool) inputs, which torch.jit.trace cannot take,
  are fixed at set 0's values (a trace bakes them), and Python numbers the entry
  returns become tensors in the traced function and numbers again for the comparison
  (a trace bakes them as constants). Where torch.jit.trace's graph itself fails on a
  set (another shape, say), d2s must fail too; the case then passes, saying why.

The entry is picked as d2s picks it: the last top-level def or class. A class is
instantiated with no arguments after torch.manual_seed(0); its state_dict goes to
a weights file passed to d2s with --weights, so both sides use the same parameters.
Modules stay in training mode, as PyTorch creates them. `fill:` inputs are
reproduced with d2s's own generator (d2s_random.py, a port of docs/random.md).

Structure (--structure): for every sample, the number of prim::If and prim::Loop
nodes (nested ones included) in `d2s parse`'s graph against torch.jit.script's graph
of the same entry (a class: the scripted instance's forward), counted with
`graph.findAllNodes(kind, recurse=True)`. Two documented rules of d2s's are applied to
TorchScript's graph first (torch_structure says how): branches on `self.training` are
decided as freezing does, and Ifs that only merge control flags (break/continue/return
exit flags, `c ? True : False`) are not counted. Any other difference fails the
sample; the table at the end shows both counts.

Printed lines: d2s prints as eager PyTorch does, in the parse route too (a shape as
`torch.Size([1, 10])`, where torch.jit.script writes `[1, 10]`; docs/language.md), so
both modes that keep print compare with PyTorch eager's lines.

Errors (--errors): runs d2s on every samples/errors/<name>.py (inputs from
<name>.inputs.yaml when present, else none) and checks it against
<name>.expect.yaml: the exit code, a `file:line:col: error:` line at the expected
place, a caret under the expected column, and the expected message substrings.

Prints `PASS name[set]` or `FAIL name[set]: reason` per case (`SKIP name[set]: reason`
where there is nothing to compare with: trace_noguards on an entry torch.jit.trace
cannot trace because it calls backward(), on sets other than the traced one, which is
compared with PyTorch eager instead) and finally `N passed, N failed`; exits 1 on any
failure, 2 when PyTorch is missing.
"""

import argparse
import ast
import contextlib
import importlib.util
import inspect
import io
import math
import os
import re
import subprocess
import sys
import tempfile
import warnings

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

MODES = ("eager", "trace", "parse", "trace_noguards")


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


def compare_stdout(want_text, got_text):
    want = want_text.splitlines()
    got = got_text.splitlines()
    if want != got:
        for i in range(max(len(want), len(got))):
            w = want[i] if i < len(want) else "(nothing)"
            g = got[i] if i < len(got) else "(nothing)"
            if w != g:
                raise Mismatch(f"printed line {i + 1}: d2s {g!r}, PyTorch {w!r}")


def parity_case(d2s, sample, set_index, inputs, mode, seed, check_stdout, tmp):
    expected, torch_stdout, state = run_torch(sample, inputs, set_index, seed)

    in_path = write_set(tmp, "inputs.yaml", inputs, set_index, seed)
    args = ["run", sample, "--inputs", in_path, "--mode", mode]
    if mode == "trace":
        args += ["--trace-inputs", in_path]  # traced on this very set
    if seed:
        args += ["--seed", str(seed)]
    if state is not None:
        args += ["--weights", write_weights(tmp, state)]
    p, outputs = d2s_outputs(d2s, args, tmp)
    if outputs is None:
        raise Mismatch(f"d2s exited {p.returncode}: {first_lines(p.stderr)}")
    compare(expected_outputs(expected), outputs, "outputs")
    if check_stdout:
        compare_stdout(torch_stdout, p.stdout)


# ---------------------------------------------------------------- torch.jit.trace

class JitTrace:
    """The sample's entry traced by torch.jit.trace on one input set, to run on
    others. Scalar inputs are fixed at the traced set's values and returned Python
    numbers become tensors (torch.jit.trace takes and returns tensors only); run()
    turns those back into numbers, so results compare with d2s's outputs."""

    def __init__(self, path, inputs, set_index, seed):
        kind, name = entry_of(path)
        module = import_sample(path)
        args = {k: make_value(v, k, set_index, seed) for k, v in inputs.items()}
        self.state = None
        self.notes = []
        with contextlib.redirect_stdout(io.StringIO()):
            if kind == "class":
                torch.manual_seed(0)
                model = getattr(module, name)()
                self.state = {k: v.detach().clone() for k, v in model.state_dict().items()}
                params = list(inspect.signature(model.forward).parameters)
                fn = model
            else:
                fn = getattr(module, name)
                params = list(inspect.signature(fn).parameters)
        self.tensor_names = [n for n in params if isinstance(args.get(n), torch.Tensor)]
        fixed = {n: v for n, v in args.items() if n not in self.tensor_names}
        if fixed:
            self.notes.append("scalar inputs fixed at the traced set's values: " +
                              ", ".join(f"{k}={v!r}" for k, v in fixed.items()))
        self.pattern = None  # (returned a tuple, [type of each Python number or None])
        names = self.tensor_names

        def call(*tensors):
            return self._to_tensors(fn(**fixed, **dict(zip(names, tensors))))

        if kind == "class":
            class Traced(torch.nn.Module):
                def __init__(self, m):
                    super().__init__()
                    self.m = m  # its parameters stay parameters of the trace

                def forward(self, *tensors):
                    return call(*tensors)

            target = Traced(model)
        else:
            target = call
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")  # TracerWarnings: what d2s's guards are for
            self.traced = torch.jit.trace(target, tuple(args[n] for n in names),
                                          check_trace=False)
        if self.pattern and any(self.pattern[1]):
            self.notes.append("returned Python numbers baked as tensor constants")

    def _to_tensors(self, out):
        is_tuple = isinstance(out, tuple)
        items = list(out) if is_tuple else [out]
        types = [type(v) if isinstance(v, (bool, int, float)) else None for v in items]
        if self.pattern is None:
            self.pattern = (is_tuple, types)
        conv = [torch.tensor(v) if t else v for v, t in zip(items, types)]
        return tuple(conv) if is_tuple else conv[0]

    def run(self, inputs, set_index, seed):
        missing = [n for n in self.tensor_names if n not in inputs]
        if missing:
            raise Mismatch(f"the set lacks {', '.join(missing)}, a tensor input of the trace")
        tensors = [make_value(inputs[n], n, set_index, seed) for n in self.tensor_names]
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            out = self.traced(*tensors)
        is_tuple, types = self.pattern
        items = list(out) if is_tuple else [out]
        # torch.jit.trace may hand a 0-d tensor back as a number already.
        back = [t(v.item() if isinstance(v, torch.Tensor) else v) if t else v
                for v, t in zip(items, types)]
        return tuple(back) if is_tuple else back[0]


def torch_error_text(e):
    """One line for an exception of PyTorch: the TorchScript interpreter's errors start
    with boilerplate and end with the message that matters."""
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    if len(lines) > 1 and lines[0].startswith("The following operation failed"):
        return lines[-1]
    return f"{type(e).__name__}: {lines[0] if lines else '(no message)'}"


def noguards_sample(d2s, name, sample, sets, seed, tmp):
    """torch.jit.trace on set 0 against `d2s run --mode trace --no-guards` traced on
    set 0, on every set: yields (set index, None or a Mismatch, a note)."""
    try:
        jt = JitTrace(sample, sets[0], 0, seed)
    except Exception as e:
        if "requires grad as a constant" in str(e):
            # The entry calls backward(): torch.jit.trace would have to bake the
            # gradients as constants and refuses. With no torch.jit.trace graph to
            # compare with, the plain trace must still be right on the set it was
            # traced on; on other sets nothing says what it should give.
            yield from noguards_without_reference(d2s, sample, sets, seed, tmp)
            return
        for i in range(len(sets)):
            yield i, Mismatch(f"torch.jit.trace cannot trace the entry: {type(e).__name__}: "
                              f"{first_lines(str(e), 1)}"), ""
        return
    if jt.notes:
        print(f"NOTE {name}: torch.jit.trace: {'; '.join(jt.notes)}")
    trace_path = write_set(tmp, "trace.yaml", sets[0], 0, seed)
    common = ["--mode", "trace", "--no-guards", "--trace-inputs", trace_path]
    if seed:
        common += ["--seed", str(seed)]
    if jt.state is not None:
        common += ["--weights", write_weights(tmp, jt.state)]
    for i, inputs in enumerate(sets):
        try:
            in_path = write_set(tmp, "inputs.yaml", inputs, i, seed)
            try:
                expected, torch_error = jt.run(inputs, i, seed), None
            except Mismatch:
                raise
            except Exception as e:
                expected, torch_error = None, torch_error_text(e)
            p, outputs = d2s_outputs(d2s, ["run", sample, "--inputs", in_path] + common, tmp)
            if torch_error is not None:
                if outputs is not None:
                    raise Mismatch(f"torch.jit.trace's graph fails on this set ({torch_error}) "
                                   "but d2s's trace gives outputs")
                yield i, None, (f"both fail, comparison skipped: torch.jit.trace's graph: "
                                f"{torch_error}; d2s: {first_lines(p.stderr, 1)}")
                continue
            if outputs is None:
                raise Mismatch(f"d2s exited {p.returncode}: {first_lines(p.stderr)}")
            compare(expected_outputs(expected), outputs, "outputs")
            yield i, None, ""
        except Mismatch as e:
            yield i, e, ""


def noguards_without_reference(d2s, sample, sets, seed, tmp):
    why = ("torch.jit.trace cannot trace the entry (it calls backward(), whose gradients "
           "it refuses to bake as constants)")
    try:
        expected, _, state = run_torch(sample, sets[0], 0, seed)
        trace_path = write_set(tmp, "trace.yaml", sets[0], 0, seed)
        args = ["run", sample, "--inputs", trace_path, "--mode", "trace", "--no-guards",
                "--trace-inputs", trace_path]
        if seed:
            args += ["--seed", str(seed)]
        if state is not None:
            args += ["--weights", write_weights(tmp, state)]
        p, outputs = d2s_outputs(d2s, args, tmp)
        if outputs is None:
            raise Mismatch(f"d2s exited {p.returncode}: {first_lines(p.stderr)}")
        compare(expected_outputs(expected), outputs, "outputs")
        yield 0, None, f"{why}: compared with PyTorch eager on the traced set"
    except Mismatch as e:
        yield 0, e, ""
    for i in range(1, len(sets)):
        yield i, Skipped(f"{why}: no reference for other sets"), ""


def samples_in(directory, only):
    names = sorted(f[:-3] for f in os.listdir(directory) if f.endswith(".py"))
    if only:
        missing = [n for n in only if n not in names]
        if missing:
            raise SystemExit(f"parity.py: no such sample: {', '.join(missing)}")
        names = [n for n in names if n in only]
    return names


def check_stdout_in(args, mode):
    if args.stdout == "auto":
        return mode in ("eager", "parse")  # the modes that keep print
    return args.stdout == "check" or (args.stdout == "eager" and mode == "eager")


def parity(args):
    passed = failed = skipped = 0
    modes = [m for spec in args.mode for m in spec.split(",") if m]
    for mode in modes:
        if mode not in MODES:
            raise SystemExit(f"parity.py: unknown mode {mode!r} (modes: {', '.join(MODES)})")
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
            if mode == "trace_noguards":
                try:
                    with tempfile.TemporaryDirectory(prefix="d2s-parity-") as tmp:
                        for i, error, note in noguards_sample(args.d2s, name, sample, sets,
                                                              args.seed, tmp):
                            if isinstance(error, Skipped):
                                print(f"SKIP {label}[{i}]: {error}")
                                skipped += 1
                            elif error is None:
                                print(f"PASS {label}[{i}]" + (f" ({note})" if note else ""))
                                passed += 1
                            else:
                                print(f"FAIL {label}[{i}]: {error}")
                                failed += 1
                            sys.stdout.flush()
                except Exception as e:  # PyTorch or the suite itself
                    print(f"FAIL {label}[*]: {type(e).__name__}: {e}")
                    failed += 1
                continue
            for i, inputs in enumerate(sets):
                try:
                    with tempfile.TemporaryDirectory(prefix="d2s-parity-") as tmp:
                        parity_case(args.d2s, sample, i, inputs, mode, args.seed,
                                    check_stdout_in(args, mode), tmp)
                    print(f"PASS {label}[{i}]")
                    passed += 1
                except Mismatch as e:
                    print(f"FAIL {label}[{i}]: {e}")
                    failed += 1
                except Exception as e:  # PyTorch or the suite itself
                    print(f"FAIL {label}[{i}]: {type(e).__name__}: {e}")
                    failed += 1
                sys.stdout.flush()
    return passed, failed, skipped


# ---------------------------------------------------------------- structure

CONTROL_KINDS = ("prim::If", "prim::Loop")


def count_yaml_nodes(nodes, counts):
    """Counts control-flow kinds in an IR file's node list, nested blocks included
    (an explicit stack: nesting depth is the file's business, not Python's)."""
    stack = [nodes or []]
    while stack:
        for node in stack.pop():
            if node.get("kind") in counts:
                counts[node["kind"]] += 1
            for block in node.get("blocks") or []:
                stack.append(block.get("nodes") or [])


def d2s_structure(d2s, sample, tmp):
    graph = os.path.join(tmp, "parsed.yaml")
    p = run_d2s(d2s, ["parse", sample, "-o", graph], tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s parse exited {p.returncode}: {first_lines(p.stderr)}")
    counts = dict.fromkeys(CONTROL_KINDS, 0)
    count_yaml_nodes(load_yaml(graph).get("nodes"), counts)
    return counts


def torch_structure(sample):
    """torch.jit.script's counts for the sample's entry, made comparable with d2s's:
    (counts, notes). Two differences are expected, each by a rule of d2s's, and
    normalised here rather than skipped:

    - `self.training` (contract §2): d2s decides branches on module attributes at
      conversion time, as freezing a module does. TorchScript's graph gets the same
      treatment: each `prim::GetAttr[name="training"]` becomes the module's value (a
      new module trains, as in the parity runs) and TorchScript's own constant
      propagation folds the Ifs on it.
    - flag Ifs: Ifs whose arms run no op and only merge control flags. TorchScript's
      exit transform makes them for break/continue/return (a flag in each arm, the
      values of the arm that exits `prim::Uninitialized`, and an If on such a flag to
      pick which arm's values go on), and `a and b` makes one where b is a constant
      (`c ? True : False`). d2s carries the same flags as values of the enclosing If
      or Loop and folds `c ? True : False` to c (docs/ir.md), so it has no If there.
      They are not counted; Ifs that choose between ops or between values are.
    """
    kind, name = entry_of(sample)
    module = import_sample(sample)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        if kind == "class":
            torch.manual_seed(0)
            instance = getattr(module, name)()
            scripted = torch.jit.script(instance)
        else:
            instance = None
            scripted = torch.jit.script(getattr(module, name))
    graph = scripted.graph.copy()  # a scripted module's is its forward's
    notes = []
    if instance is not None:
        folded = fold_training(graph, instance.training)
        if folded:
            notes.append(f"{folded} If(s) on self.training decided as d2s does "
                         f"(training={instance.training})")
    counts = dict.fromkeys(CONTROL_KINDS, 0)
    flags = 0
    for k in CONTROL_KINDS:
        for node in graph.findAllNodes(k, recurse=True):
            if k == "prim::If" and is_flag_if(node):
                flags += 1
            else:
                counts[k] += 1
    if flags:
        notes.append(f"{flags} flag If(s) of break/continue/return or a constant `and`/`or` "
                     "not counted")
    return counts, notes


def fold_training(graph, training):
    """Replaces every read of `training` by the constant and runs TorchScript's constant
    propagation; returns how many prim::If nodes that removed."""
    before = len(graph.findAllNodes("prim::If", recurse=True))
    reads = [n for n in graph.findAllNodes("prim::GetAttr", recurse=True)
             if n.s("name") == "training"]
    if not reads:
        return 0
    for node in reads:
        constant = graph.insertConstant(bool(training))
        constant.node().moveBefore(node)
        node.output().replaceAllUsesWith(constant)
        node.destroy()
    torch._C._jit_pass_constant_propagation(graph)
    return before - len(graph.findAllNodes("prim::If", recurse=True))


def is_flag_if(node):
    """Whether a TorchScript prim::If only merges control flags (see torch_structure):
    its arms run no op, and it tests another If's flag, or an arm yields
    prim::Uninitialized, or every output is a constant bool."""
    blocks = list(node.blocks())
    if any(n.kind() != "prim::Constant" for b in blocks for n in b.nodes()):
        return False
    if node.inputsAt(0).node().kind() == "prim::If":
        return True
    outs = [v for b in blocks for v in b.outputs()]
    if any(v.node().kind() == "prim::Uninitialized" for v in outs):
        return True
    return bool(outs) and all(v.node().kind() == "prim::Constant" and str(v.type()) == "bool"
                              for v in outs)


def structure(args):
    passed = failed = 0
    rows = []
    for name in samples_in(args.samples, args.only):
        sample = os.path.join(args.samples, name + ".py")
        mine = theirs = None
        try:
            with tempfile.TemporaryDirectory(prefix="d2s-structure-") as tmp:
                mine = d2s_structure(args.d2s, sample, tmp)
            try:
                theirs, notes = torch_structure(sample)
            except Exception as e:
                raise Mismatch(f"torch.jit.script cannot compile it: {type(e).__name__}: "
                               f"{first_lines(str(e), 1)}")
            why = f" (TorchScript: {'; '.join(notes)})" if notes else ""
            diffs = [f"{k}: d2s {mine[k]}, TorchScript {theirs[k]}"
                     for k in CONTROL_KINDS if mine[k] != theirs[k]]
            if diffs:
                raise Mismatch("; ".join(diffs) + why)
            print(f"PASS {name}: " + ", ".join(f"{mine[k]} {k}" for k in CONTROL_KINDS) + why)
            passed += 1
        except Mismatch as e:
            print(f"FAIL {name}: {e}")
            failed += 1
        except Exception as e:
            print(f"FAIL {name}: {type(e).__name__}: {e}")
            failed += 1
        rows.append((name, mine, theirs))
        sys.stdout.flush()

    def cell(counts, k):
        return "-" if counts is None else str(counts[k])

    print()
    print(f"{'sample':<18} {'If d2s':>7} {'If TS':>6} {'Loop d2s':>9} {'Loop TS':>8}")
    for name, mine, theirs in rows:
        flag = "" if mine is not None and mine == theirs else "  <- differs"
        print(f"{name:<18} {cell(mine, 'prim::If'):>7} {cell(theirs, 'prim::If'):>6} "
              f"{cell(mine, 'prim::Loop'):>9} {cell(theirs, 'prim::Loop'):>8}{flag}")
    print()
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
                    help="eager (default), trace, parse or trace_noguards; repeat or "
                         "comma-separate for several")
    ap.add_argument("--errors", action="store_true", help="check samples/errors instead")
    ap.add_argument("--structure", action="store_true",
                    help="compare prim::If/prim::Loop counts with torch.jit.script instead")
    ap.add_argument("--samples", default=DEFAULT_SAMPLES, help="the samples folder")
    ap.add_argument("--only", action="append", default=[], help="only this sample (repeatable)")
    ap.add_argument("--seed", type=int, default=0, help="d2s's --seed (for fill: without seed:)")
    ap.add_argument("--stdout", choices=["auto", "eager", "check", "off"], default="auto",
                    help="compare printed lines: in the modes that keep print, eager and parse "
                         "(auto, the default), in eager mode only, always, never")
    args = ap.parse_args()
    args.mode = args.mode or ["eager"]
    args.d2s = os.path.abspath(args.d2s)
    args.samples = os.path.abspath(args.samples)
    if not os.access(args.d2s, os.X_OK):
        print(f"parity.py: {args.d2s} is not an executable d2s", file=sys.stderr)
        return 2
    skipped = 0
    if args.errors:
        passed, failed = errors(args)
    elif args.structure:
        passed, failed = structure(args)
    else:
        passed, failed, skipped = parity(args)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
