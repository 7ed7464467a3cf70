#!/usr/bin/python3
"""Error programs checked against the error PyTorch raises, live.

    live_errors.py D2S --samples DIR [--mode eager[,trace,parse]] [--exit N]

For every DIR/<name>.py (inputs from <name>.inputs.yaml when present), runs the entry
under real PyTorch, which must raise, and under `D2S run --mode MODE`, which must exit
2 with one `<name>.py:LINE:COL: error:` line at the line of the sample PyTorch's
traceback ends in, and a message holding PyTorch's exception type and message (its
first line, as d2s writes Python's `Type: message`; RuntimeErrors of ops may be
written without the type, as d2s writes kernel errors).

--exit N expects that exit code instead of 2 (a raised exception exits 2 in every
route, a parsed graph's prim::RaiseException too; only a failed assert exits 1).

Prints PASS/FAIL per case and `N passed, N failed`; exits 1 on any failure, 2 without
PyTorch.
"""
import argparse
import os
import re
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity_common import (Mismatch, first_lines, input_sets, print_fail,  # noqa: E402
                           run_d2s, run_torch, samples_in, write_set)


def torch_error(path, inputs):
    """PyTorch's exception for the sample: (type name, first message line, line number)."""
    try:
        run_torch(path, inputs, 0, 0)
    except Exception as e:  # noqa: BLE001 - any exception is the expectation
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if os.path.abspath(f.filename) == os.path.abspath(path)]
        line = frames[-1].lineno if frames else None
        return type(e).__name__, str(e).split("\n")[0], line
    raise Mismatch("PyTorch ran the program without an error")


def check(d2s, path, mode, tmp, want_exit=2):
    inputs_path = path[:-3] + ".inputs.yaml"
    sets = input_sets(inputs_path) if os.path.exists(inputs_path) else [{}]
    inputs = sets[0]
    etype, message, line = torch_error(path, inputs)
    args = ["run", path, "--mode", mode, "-o", os.path.join(tmp, "out.yaml")]
    if inputs:
        args += ["--inputs", write_set(tmp, "in.yaml", inputs, 0, 0)]
    if mode == "trace" and inputs:
        args += ["--trace-inputs", os.path.join(tmp, "in.yaml")]
    p = run_d2s(d2s, args, tmp)
    if p.returncode != want_exit:
        raise Mismatch(f"exit {p.returncode}, expected {want_exit}: {first_lines(p.stderr)}")
    base = re.escape(os.path.basename(path))
    at = re.search(r"(^|/)" + base + r":(\d+):(\d+): error: (.*)", p.stderr, re.M)
    if not at:
        raise Mismatch(f"no `{os.path.basename(path)}:LINE:COL: error:` line: {first_lines(p.stderr)}")
    if line is not None and int(at.group(2)) != line:
        raise Mismatch(f"error at line {at.group(2)}, PyTorch's at line {line}")
    if message not in p.stderr:
        raise Mismatch(f"message lacks PyTorch's {message!r}: {at.group(4)}")
    if etype != "RuntimeError" and f"{etype}: {message}" not in p.stderr:
        raise Mismatch(f"message lacks PyTorch's type {etype}: {at.group(4)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("d2s")
    ap.add_argument("--samples", required=True)
    ap.add_argument("--mode", default="eager")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--exit", type=int, default=2, help="the exit code expected (default 2)")
    args = ap.parse_args()
    passed = failed = 0
    for mode in args.mode.split(","):
        for name in samples_in(args.samples, args.only):
            path = os.path.join(args.samples, name + ".py")
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    check(args.d2s, path, mode, tmp, args.exit)
                    print(f"PASS {mode}:{name}")
                    passed += 1
                except Mismatch as e:
                    print_fail(f"{mode}:{name}", e)
                    failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
