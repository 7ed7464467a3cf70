#!/usr/bin/python3
"""PyTorch's errors for writes through views and for view() of a strided tensor, live.

    view_errors_parity.py D2S [--samples DIR] [--mode MODE]

For every program of DIR (tests/parity/views_errors by default) and the first set of
its inputs file, runs the entry under PyTorch, which must raise, and `d2s run` in MODE
(eager by default), which must exit 2 with a `file:line:col: error:` line holding
PyTorch's message (its first sentence and everything up to the end of the message).
Exits 1 on a failure.
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parity_common as common  # noqa: E402
from parity_common import Mismatch, input_sets  # noqa: E402


def torch_error(path, inputs):
    try:
        common.run_torch(path, inputs, 0, 0)
    except RuntimeError as e:
        return str(e).split("\n")[0]
    raise Mismatch("PyTorch ran it without an error")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("d2s")
    ap.add_argument("--samples",
                    default=os.path.join(os.path.dirname(__file__), "views_errors"))
    ap.add_argument("--mode", default="eager")
    args = ap.parse_args()
    d2s = os.path.abspath(args.d2s)
    passed = failed = 0
    for name in common.samples_in(args.samples, []):
        sample = os.path.abspath(os.path.join(args.samples, name + ".py"))
        inputs = input_sets(os.path.join(args.samples, name + ".inputs.yaml"))[0]
        case = f"{args.mode}:{name}"
        try:
            want = torch_error(sample, inputs)
            with tempfile.TemporaryDirectory() as tmp:
                in_path = common.write_set(tmp, "inputs.yaml", inputs, 0, 0)
                p = common.run_d2s(d2s, ["run", sample, "--inputs", in_path, "--mode", args.mode,
                                         "-o", os.path.join(tmp, "out.yaml")], tmp)
            if p.returncode != 2:
                raise Mismatch(f"d2s exited {p.returncode}, expected 2: "
                               f"{common.first_lines(p.stderr)}")
            if not re.search(re.escape(os.path.basename(sample)) + r":\d+:\d+: error:", p.stderr):
                raise Mismatch(f"no file:line:col error line: {common.first_lines(p.stderr)}")
            flat = " ".join(p.stderr.split())
            if " ".join(want.split()) not in flat:
                raise Mismatch(f"PyTorch says {want!r}; d2s: {common.first_lines(p.stderr)}")
            print(f"PASS {case}")
            passed += 1
        except Mismatch as e:
            print(f"FAIL {case}: {e}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
