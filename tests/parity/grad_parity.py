#!/usr/bin/python3
"""The live PyTorch parity suite for d2s's gradients (docs/autograd.md).

    grad_parity.py D2S [--mode eager[,trace,parse]] [--samples DIR] [--only NAME ...]

For every samples/<name>.py and every input set of samples/<name>.inputs.yaml,
differentiates the entry's first output under real PyTorch (`.backward()`) and
under `D2S run --grad --mode MODE`, and compares the gradients of every float input
and every module parameter: same set of names, values within rtol 1e-4 (atol 1e-5,
numpy.allclose); a gradient PyTorch leaves as None must be null (or zeros) in d2s.

So that every sample has something to differentiate:
- every float32 tensor input gets `requires_grad: true` (on both sides);
- the loss is the first output's sum: a generated program (the sample's source plus
  one wrapper entry) returns `ENTRY(...)[0].sum()` (or `ENTRY(...).sum()`); a class
  entry is wrapped in a module holding it as `self.m`, whose parameters are named
  `m.<state_dict name>` on both sides.
A set whose first output is not a float tensor under PyTorch (an int, a bool mask,
a Python number) has no gradient: SKIP. Gradients a `backward()` inside the sample
accumulated are dropped before the loss's backward on both sides, as `d2s run
--grad` does.

Inputs, weights and `fill:` values come from parity_common.py (the helpers
parity.py uses, imported): the same generator port (d2s_random.py),
torch.manual_seed(0) for classes, the state_dict handed to d2s with --weights. Trace
mode traces on the set itself (--trace-inputs).

Prints PASS/SKIP/FAIL per case and `N passed, N failed, N skipped`; exits 1 on any
failure, 2 when PyTorch is missing (parity_common.py's import says so).
"""
import argparse
import ast
import contextlib
import io
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parity_common as common  # noqa: E402  (exits 2 without torch, numpy, yaml)
from parity_common import Mismatch, input_sets, load_yaml, make_value, np, torch  # noqa: E402

MODES = ("eager", "trace", "parse")
RTOL, ATOL = 1e-4, 1e-5
WRAPPER = "d2s_grad_loss"
WRAPPER_CLASS = "D2sGradLoss"


def with_grad_inputs(inputs):
    """The set with every float32 tensor spec marked requires_grad."""
    out = {}
    for name, v in inputs.items():
        if common.is_tensor_spec(v) and v.get("dtype", "float32") == "float32":
            v = dict(v, requires_grad=True)
        out[name] = v
    return out


def call_of(params, skip_self):
    """The arguments that pass a signature's parameters on: positional ones by position,
    then `*args`, keyword-only ones by name and `**kwargs`."""
    parts = [a.arg for a in params.args[1 if skip_self else 0:]]
    if params.vararg:
        parts.append("*" + params.vararg.arg)
    parts += [f"{a.arg}={a.arg}" for a in params.kwonlyargs]
    if params.kwarg:
        parts.append("**" + params.kwarg.arg)
    return ", ".join(parts)


def wrapper_source(path, first_is_item):
    """The sample's source plus an entry returning the loss (defined last, so that it
    is the entry d2s picks)."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    kind, name = common.entry_of(path)
    pick = "[0]" if first_is_item else ""
    tree = ast.parse(source, path)
    node = [n for n in tree.body if getattr(n, "name", None) == name][-1]
    if kind == "class":
        forward = [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "forward"][0]
        params = forward.args
        call = call_of(params, skip_self=True)
        signature = ast.unparse(params)
        base = ast.unparse(node.bases[0]) if node.bases else "torch.nn.Module"
        return (source + f"\n\nclass {WRAPPER_CLASS}({base}):\n"
                f"    def __init__(self):\n"
                f"        super().__init__()\n"
                f"        self.m = {name}()\n\n"
                f"    def forward({signature}):\n"
                f"        return self.m({call}){pick}.sum()\n"), "class"
    params = node.args
    call = call_of(params, skip_self=False)
    return (source + f"\n\ndef {WRAPPER}({ast.unparse(params)}):\n"
            f"    return {name}({call}){pick}.sum()\n"), "function"


def torch_grads(path, inputs, set_index, seed):
    """(loss, {name: grad or None}, state_dict or None) under PyTorch, or None when the
    first output is not a float tensor."""
    kind, name = common.entry_of(path)
    module = common.import_sample(path)
    args = {k: make_value(v, k, set_index, seed) for k, v in inputs.items()}
    with contextlib.redirect_stdout(io.StringIO()):
        if kind == "class":
            torch.manual_seed(0)
            model = getattr(module, name)()
            result = model(**args)
        else:
            model = None
            result = getattr(module, name)(**args)
    first_is_item = isinstance(result, tuple)
    first = result[0] if first_is_item else result
    if not isinstance(first, torch.Tensor) or not first.is_floating_point():
        return None
    leaves = {k: v for k, v in args.items()
              if isinstance(v, torch.Tensor) and v.requires_grad}
    if model is not None:
        # The wrapper's own init, under the same seed, gives the same parameters.
        torch.manual_seed(0)
        wrapped = getattr(module, name)()
        holder = torch.nn.Module()
        holder.m = wrapped
        state = {k: v.detach().clone() for k, v in holder.state_dict().items()}
        for k, p in holder.named_parameters():
            leaves[k] = p
        args = {k: make_value(v, k, set_index, seed) for k, v in inputs.items()}
        leaves.update({k: v for k, v in args.items()
                       if isinstance(v, torch.Tensor) and v.requires_grad})
        with contextlib.redirect_stdout(io.StringIO()):
            result = wrapped(**args)
        first = result[0] if first_is_item else result
    else:
        state = None
    for t in leaves.values():
        t.grad = None  # what a backward() inside the program accumulated
    loss = first.sum()
    if loss.requires_grad:
        loss.backward()
    grads = {k: (None if t.grad is None else t.grad.detach()) for k, t in leaves.items()}
    return grads, state, first_is_item


def compare_grads(want, got):
    got = got or {}
    for name, g in want.items():
        if name not in got:
            if g is None or not torch.any(g != 0):
                continue
            raise Mismatch(f"d2s gives no gradient for '{name}'")
        d = got[name]
        if g is None:
            if d is not None and any(x != 0 for x in common.flatten(d["data"])):
                raise Mismatch(f"'{name}': PyTorch has no gradient, d2s {common.short(d)}")
            continue
        if d is None:
            if torch.any(g != 0):
                raise Mismatch(f"'{name}': d2s gives null, PyTorch {common.short(g)}")
            continue
        if list(d["shape"]) != list(g.shape):
            raise Mismatch(f"'{name}': shape {d['shape']}, PyTorch {list(g.shape)}")
        a = np.array(common.flatten(d["data"]), dtype=np.float64)
        b = g.reshape(-1).double().numpy()
        if not np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True):
            i = int(np.argmax(np.abs(a - b)))
            raise Mismatch(f"'{name}'[{i}]: d2s {a[i]!r}, PyTorch {b[i]!r}")
    extra = [n for n in got if n not in want]
    if extra:
        raise Mismatch(f"d2s has gradients PyTorch does not: {', '.join(extra)}")


@contextlib.contextmanager
def graphs_kept():
    """Tensor.backward with retain_graph=True, as d2s keeps its tape: a sample's own
    backward() must not free what the loss's backward needs."""
    original = torch.Tensor.backward

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        return original(self, gradient, True, create_graph, inputs)

    torch.Tensor.backward = backward
    try:
        yield
    finally:
        torch.Tensor.backward = original


def grad_case(d2s, sample, set_index, inputs, mode, seed, tmp):
    """None when the gradients match, a reason to skip, or raises Mismatch."""
    inputs = with_grad_inputs(inputs)
    try:
        with graphs_kept():
            reference = torch_grads(sample, inputs, set_index, seed)
    except RuntimeError as e:
        # PyTorch refuses the program with these inputs requiring grad (an in-place op
        # on a leaf, say): d2s must refuse it too.
        reason = str(e).split("\n")[0]
        program_args = ["run", sample, "--inputs",
                        common.write_set(tmp, "inputs.yaml", inputs, set_index, seed),
                        "--mode", mode, "--grad"]
        p = common.run_d2s(d2s, program_args, tmp)
        if p.returncode != 2:
            raise Mismatch(f"PyTorch fails ({reason}) but d2s exited {p.returncode}")
        said = p.stderr.split("\n")[0].split("error: ", 1)[-1]
        return None, f"both reject it: PyTorch: {reason}; d2s: {said}"
    if reference is None:
        return "the first output is not a float tensor: nothing to differentiate", None
    want, state, first_is_item = reference
    source, kind = wrapper_source(sample, first_is_item)
    program = os.path.join(tmp, os.path.basename(sample))
    with open(program, "w", encoding="utf-8") as f:
        f.write(source)
    in_path = common.write_set(tmp, "inputs.yaml", inputs, set_index, seed)
    args = ["run", program, "--inputs", in_path, "--mode", mode, "--grad"]
    if mode == "trace":
        args += ["--trace-inputs", in_path]
    if seed:
        args += ["--seed", str(seed)]
    if state is not None:
        args += ["--weights", common.write_weights(tmp, state)]
    out_path = os.path.join(tmp, "outputs.yaml")
    p = common.run_d2s(d2s, args + ["-o", out_path], tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s exited {p.returncode}: {common.first_lines(p.stderr)}")
    doc = load_yaml(out_path)
    if isinstance(doc, list):
        doc = doc[0]
    compare_grads(want, doc.get("grads"))
    return None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("d2s")
    ap.add_argument("--mode", action="append", default=[])
    ap.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "samples"))
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    args.d2s = os.path.abspath(args.d2s)
    modes = [m for spec in (args.mode or ["eager,trace,parse"]) for m in spec.split(",") if m]
    passed = failed = skipped = 0
    for mode in modes:
        if mode not in MODES:
            raise SystemExit(f"grad_parity.py: unknown mode {mode!r} (modes: {', '.join(MODES)})")
        for name in common.samples_in(args.samples, args.only):
            sample = os.path.abspath(os.path.join(args.samples, name + ".py"))
            inputs_path = os.path.join(args.samples, name + ".inputs.yaml")
            sets = input_sets(inputs_path)
            for i, inputs in enumerate(sets):
                label = f"{mode}:{name}[{i}]"
                try:
                    with tempfile.TemporaryDirectory(prefix="d2s-grad-") as tmp:
                        skip, note = grad_case(args.d2s, sample, i, inputs, mode, args.seed,
                                               tmp)
                    if skip:
                        print(f"SKIP {label}: {skip}")
                        skipped += 1
                    else:
                        print(f"PASS {label}" + (f" ({note})" if note else ""))
                        passed += 1
                except Exception as e:  # a Mismatch, PyTorch or the suite itself
                    common.print_fail(label, e)
                    failed += 1
                sys.stdout.flush()
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
