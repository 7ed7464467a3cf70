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
- trace_noguards: the plain trace against torch.jit.trace (parity_noguards.py says
  how). PyTorch traces the entry on set 0 with torch.jit.trace and runs that graph
  on every set; d2s runs `--mode trace --no-guards --trace-inputs SET0` on every set.
  Wrong answers must be the same wrong answers.

The entry is picked as d2s picks it: the last top-level def or class. A class is
instantiated with no arguments after torch.manual_seed(0); its state_dict goes to
a weights file passed to d2s with --weights, so both sides use the same parameters.
Modules stay in training mode, as PyTorch creates them. `fill:` inputs are
reproduced with d2s's own generator (d2s_random.py, a port of docs/random.md).

Structure (--structure, parity_structure.py): prim::If and prim::Loop counts of
`d2s parse`'s graph against torch.jit.script's graph of the same entry, with
d2s's two documented rules (self.training decided, flag Ifs not counted) applied to
TorchScript's graph first; the module's docstring and torch_structure say why.

Printed lines: d2s prints as eager PyTorch does, in the parse route too (a shape as
`torch.Size([1, 10])`, where torch.jit.script writes `[1, 10]`; docs/language.md), so
both modes that keep print compare with PyTorch eager's lines.

Errors (--errors, parity_errors.py): runs d2s on every samples/errors/<name>.py and
checks it against <name>.expect.yaml (exit code, error place, caret, message).

The shared helpers (inputs, tensors, running d2s, comparing) are in
parity_common.py.

Prints `PASS name[set]` or `FAIL name[set]: reason` per case (`SKIP name[set]: reason`
where there is nothing to compare with: trace_noguards on an entry torch.jit.trace
cannot trace because it calls backward(), on sets other than the traced one, which is
compared with PyTorch eager instead) and finally `N passed, N failed`; exits 1 on any
failure, 2 when PyTorch is missing.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# parity_common exits 2 without torch, numpy or yaml.
from parity_common import (DEFAULT_SAMPLES, Mismatch, Skipped,  # noqa: E402
                           check_d2s_outputs, input_sets, print_fail, run_torch, samples_in,
                           write_set)
from parity_errors import errors  # noqa: E402
from parity_noguards import noguards_sample  # noqa: E402
from parity_structure import structure  # noqa: E402

MODES = ("eager", "trace", "parse", "trace_noguards")


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
    p = check_d2s_outputs(d2s, args, expected, state, seed, tmp)
    if check_stdout:
        compare_stdout(torch_stdout, p.stdout)



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
                sets = input_sets(inputs_path)
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
                except Exception as e:  # a Mismatch, PyTorch or the suite itself
                    print_fail(f"{label}[{i}]", e)
                    failed += 1
                sys.stdout.flush()
    return passed, failed, skipped



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
