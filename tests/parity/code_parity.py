#!/usr/bin/python3
"""Round trip of `d2s code` (docs/code.md) on every sample, live against PyTorch.

    code_parity.py D2S [--kind parse,trace,reroll,grad] [--samples DIR] [--only NAME ...]

For every samples/<name>.py, every input set of samples/<name>.inputs.yaml and
every graph kind:
- parse:  `d2s code NAME.py` (the parsed graph);
- trace:  `d2s code NAME.py --route trace --inputs SET` (traced on the set itself,
          guards written as asserts);
- reroll: the same with --reroll (the trace's unrolled loops folded back),
- grad:   `d2s code GRAD.yaml` of the static backward graph `d2s grad NAME.py` writes
          (its gradient nodes call PyTorch's own derivative, `_d2s_vjp`); its outputs
          must equal `d2s run GRAD.yaml`'s on the set (at grad_parity.py's tolerance,
          rtol 1e-4 / atol 1e-5: PyTorch's derivatives sum in another order). A sample `d2s grad` refuses (a
          loop: no static backward graph yet) is SKIP, with d2s's message, and counted;
          the emitted code of a backward graph is not read back by `d2s parse`,
the emitted code is run by real PyTorch on the set and must give d2s's eager
outputs (`d2s run NAME.py`, rtol 1e-5 / atol 1e-6), and `d2s parse` of the emitted
code must give the graph it came from: the same count of every op kind (constants,
and lists built of constants only, left out; the asserts that re-check a trace's
guards and the torch.tensor(...) of a trace's tensor constants counted as the guard
and the constant they stand for)
and the same prim::If / prim::Loop nesting.

A class sample's parameters are arguments of the emitted function; the comment
block above it maps each to its state_dict name, and they get the state_dict of
the class instantiated after torch.manual_seed(0) (the weights d2s is given too).

Prints `PASS kind:name[set]`, `SKIP kind:name[set]: reason` or `FAIL kind:name[set]:
reason`, then `N passed, N skipped, N failed`; exits 1 on any failure, 2 without PyTorch.
"""
import argparse
import contextlib
import inspect
import io
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parity_common as common  # noqa: E402  (exits 2 without torch, numpy, yaml)
from parity_common import Mismatch, input_sets, load_yaml, make_value, torch  # noqa: E402

KINDS = ("parse", "trace", "reroll", "grad")
# Emitted code the parse route cannot read yet, by (sample, kind): the message `d2s
# parse` must give (checked, so that the case fails once the language reads it and
# this entry should go). PyTorch's run of the code is checked as for every case.
KNOWN_PARSE_LIMITS = {}
GRAD_RTOL, GRAD_ATOL = 1e-4, 1e-5
STATE_LINE = re.compile(r"^#   (\w+): (\S+)$")
GUARD_LINE = "# guard, line"


class NoBackwardGraph(Exception):
    """`d2s grad` refuses the sample (exit 2 naming what it does not differentiate)."""


def emit_grad(d2s, sample, tmp):
    """`d2s grad` then `d2s code` of its graph; returns (graph path, emitted path)."""
    graph = os.path.join(tmp, "grad.yaml")
    p = common.run_d2s(d2s, ["grad", sample, "-o", graph], tmp)
    if p.returncode == 2 and "not supported yet in a static backward graph" in p.stderr:
        raise NoBackwardGraph(common.first_lines(p.stderr))
    if p.returncode != 0:
        raise Mismatch(f"d2s grad exited {p.returncode}: {common.first_lines(p.stderr)}")
    out = os.path.join(tmp, "emitted.py")
    p = common.run_d2s(d2s, ["code", graph, "-o", out], tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s code exited {p.returncode}: {common.first_lines(p.stderr)}")
    return graph, out


def emit(d2s, sample, kind, in_path, tmp):
    """Runs `d2s code` for the kind; returns the emitted file's path."""
    out = os.path.join(tmp, "emitted.py")
    args = ["code", sample, "-o", out]
    if kind in ("trace", "reroll"):
        args += ["--route", "trace", "--inputs", in_path]
    if kind == "reroll":
        args.append("--reroll")
    p = common.run_d2s(d2s, args, tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s code exited {p.returncode}: {common.first_lines(p.stderr)}")
    return out


def run_emitted(path, inputs, set_index, seed, state):
    """The emitted function under PyTorch, on the set (and the state_dict)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # A graph file's parameters are arguments named after their state_dict names
    # (`linear1.weight` -> `linear1_weight`); a program's are listed in a comment.
    state_names = {k.replace(".", "_"): k for k in (state or {})}
    for line in text.splitlines():
        m = STATE_LINE.match(line)
        if m:
            state_names[m.group(1)] = m.group(2)
    module = common.import_sample(path)
    _, name = common.entry_of(path)
    fn = getattr(module, name)
    values = {k: make_value(v, k, set_index, seed) for k, v in inputs.items()}
    args = {}
    for param in inspect.signature(fn).parameters:
        if param in state_names:
            args[param] = state[state_names[param]].clone()
        elif param in values:
            args[param] = values[param]
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(**args)


def walk(nodes):
    """(kind, depth, line) of every node, nested blocks included, in order."""
    out = []
    stack = [(iter(nodes), 0)]
    while stack:
        it, depth = stack[-1]
        node = next(it, None)
        if node is None:
            stack.pop()
            continue
        out.append((node["kind"], depth, (node.get("loc") or {}).get("line"), node))
        for block in reversed(node.get("blocks") or []):
            stack.append((iter(block.get("nodes") or []), depth + 1))
    return out


def counts_and_structure(graph, skip_lines=()):
    counts = {}
    structure = []
    constant_ids = set()  # outputs of plain constants and of lists built of them
    for kind, depth, line, node in walk(graph.get("nodes") or []):
        if line in skip_lines:
            continue
        if kind == "prim::Constant":
            value = (node.get("attrs") or {}).get("value")
            if isinstance(value, dict) and "tensor" in value:
                kind = "tensor constant"
            else:
                constant_ids.update(o["id"] for o in node.get("outputs") or [])
                continue
        # A list literal of constants ([2, 2] in emitted code) is the constant list a
        # trace records for the same argument: left out like other constants.
        if kind == "prim::ListConstruct" and all(i in constant_ids
                                                 for i in node.get("inputs") or []):
            constant_ids.update(o["id"] for o in node.get("outputs") or [])
            continue
        if kind == "prim::Guard":
            kind = "guard"
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("prim::If", "prim::Loop"):
            structure.append(f"{kind}@{depth}")
    return counts, structure


def check_structure(d2s, sample, kind, in_path, emitted, tmp):
    """Raises Mismatch unless d2s parse of the emitted code gives the graph's op
    counts and If/Loop nesting; returns a note for a known limit of the parse route."""
    orig_path = os.path.join(tmp, "original.yaml")
    args = ["parse", sample, "-o", orig_path]
    if kind != "parse":
        args = ["trace", sample, "--inputs", in_path, "-o", orig_path]
        if kind == "reroll":
            args.append("--reroll")
    p = common.run_d2s(d2s, args, tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s {args[0]} exited {p.returncode}: {common.first_lines(p.stderr)}")
    back_path = os.path.join(tmp, "reparsed.yaml")
    p = common.run_d2s(d2s, ["parse", emitted, "-o", back_path], tmp)
    known = KNOWN_PARSE_LIMITS.get((os.path.splitext(os.path.basename(sample))[0], kind))
    if known:
        if p.returncode == 2 and known in p.stderr:
            return f"known limit of the parse route: {known}"
        raise Mismatch(f"expected d2s parse to fail with {known!r} (remove the "
                       f"KNOWN_PARSE_LIMITS entry if it now reads the code): exit "
                       f"{p.returncode}, {common.first_lines(p.stderr)}")
    if p.returncode != 0:
        raise Mismatch(f"d2s parse of the emitted code exited {p.returncode}: "
                       f"{common.first_lines(p.stderr)}")
    with open(emitted, encoding="utf-8") as f:
        lines = f.read().splitlines()
    guard_lines = {i + 1 for i, text in enumerate(lines) if GUARD_LINE in text}
    want, want_structure = counts_and_structure(load_yaml(orig_path))
    got, got_structure = counts_and_structure(load_yaml(back_path), guard_lines)
    # Each guard is one assert; each tensor constant one torch.tensor(...).
    got["guard"] = len(guard_lines)
    if "aten::tensor" in got and "tensor constant" in want:
        moved = min(got["aten::tensor"], want["tensor constant"])
        got["aten::tensor"] -= moved
        got["tensor constant"] = got.get("tensor constant", 0) + moved
        if not got["aten::tensor"]:
            del got["aten::tensor"]
    if not got["guard"]:
        del got["guard"]
    if want != got:
        diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        detail = ", ".join(f"{k}: {want.get(k, 0)} -> {got.get(k, 0)}" for k in diff)
        raise Mismatch(f"op counts differ after d2s parse of the emitted code: {detail}")
    if want_structure != got_structure:
        raise Mismatch(f"If/Loop structure differs: {want_structure} -> {got_structure}")
    return None


def code_case(d2s, sample, set_index, inputs, kind, seed, tmp):
    _, _, state = common.run_torch(sample, inputs, set_index, seed)
    in_path = common.write_set(tmp, "inputs.yaml", inputs, set_index, seed)
    if kind == "grad":
        graph, emitted = emit_grad(d2s, sample, tmp)
        result = run_emitted(emitted, inputs, set_index, seed, state)
        # The graph file takes parameters as inputs; its buffers are constants in it.
        module = common.import_sample(emitted)
        params = inspect.signature(getattr(module, common.entry_of(emitted)[1])).parameters
        if state is not None:
            state = {k: v for k, v in state.items() if k.replace(".", "_") in params}
        saved = common.RTOL, common.ATOL
        common.RTOL, common.ATOL = GRAD_RTOL, GRAD_ATOL
        try:
            common.check_d2s_outputs(d2s, ["run", graph, "--inputs", in_path], result, state,
                                     seed, tmp)
        finally:
            common.RTOL, common.ATOL = saved
        return None
    emitted = emit(d2s, sample, kind, in_path, tmp)
    result = run_emitted(emitted, inputs, set_index, seed, state)
    common.check_d2s_outputs(d2s, ["run", sample, "--inputs", in_path], result, state, seed, tmp)
    return check_structure(d2s, sample, kind, in_path, emitted, tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("d2s", help="the d2s program")
    ap.add_argument("--kind", action="append", default=None,
                    help="parse, trace or reroll (repeat or comma-separate; default all)")
    ap.add_argument("--samples", default=common.DEFAULT_SAMPLES, help="the samples folder")
    ap.add_argument("--only", action="append", default=[], help="only this sample (repeatable)")
    ap.add_argument("--seed", type=int, default=0, help="d2s's --seed")
    args = ap.parse_args()
    kinds = [k for spec in (args.kind or [",".join(KINDS)]) for k in spec.split(",") if k]
    for k in kinds:
        if k not in KINDS:
            raise SystemExit(f"code_parity.py: unknown kind {k!r} (kinds: {', '.join(KINDS)})")
    d2s = os.path.abspath(args.d2s)
    samples = os.path.abspath(args.samples)
    passed = skipped = failed = 0
    for kind in kinds:
        for name in common.samples_in(samples, args.only):
            sample = os.path.join(samples, name + ".py")
            sets = input_sets(os.path.join(samples, name + ".inputs.yaml"))
            for i, inputs in enumerate(sets):
                label = f"{kind}:{name}[{i}]"
                try:
                    with tempfile.TemporaryDirectory(prefix="d2s-code-") as tmp:
                        note = code_case(d2s, sample, i, inputs, kind, args.seed, tmp)
                    print(f"PASS {label}" + (f" ({note})" if note else ""))
                    passed += 1
                except NoBackwardGraph as e:
                    print(f"SKIP {label}: {e}")
                    skipped += 1
                except Exception as e:  # a Mismatch, PyTorch or the suite itself
                    common.print_fail(label, e)
                    failed += 1
                sys.stdout.flush()
    print(f"{passed} passed, {skipped} skipped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
