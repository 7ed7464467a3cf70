#!/usr/bin/python3
"""`d2s grad` on in-place programs against PyTorch's .backward().

    inplace_grad_parity.py D2S [--samples DIR]

For every program of DIR (tests/parity/inplace by default) and the first set of its
inputs file, builds the static backward graph of its trace (`d2s trace`, then `d2s
grad`) and of its parsed graph (`d2s grad PROGRAM`), runs it, and compares the gradients
of the first output's sum with respect to every float input with PyTorch's (rtol 1e-4,
as grad_parity.py, whose helpers it uses). A parsed graph with a loop is a SKIP when
`d2s grad` says loops are not supported yet (docs/autograd.md). Exits 1 on a failure.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grad_parity as gp  # noqa: E402
import parity_common as common  # noqa: E402
from parity_common import Mismatch, input_sets, load_yaml  # noqa: E402


def static_grads(d2s, program, in_path, route, tmp):
    graph = program
    if route == "trace":
        graph = os.path.join(tmp, "trace.yaml")
        p = common.run_d2s(d2s, ["trace", program, "--inputs", in_path, "-o", graph], tmp)
        if p.returncode != 0:
            raise Mismatch(f"d2s trace exited {p.returncode}: {common.first_lines(p.stderr)}")
    backward = os.path.join(tmp, "backward.yaml")
    p = common.run_d2s(d2s, ["grad", graph, "-o", backward], tmp)
    if p.returncode != 0:
        if "prim::Loop is not supported yet" in p.stderr:
            return None
        raise Mismatch(f"d2s grad exited {p.returncode}: {common.first_lines(p.stderr)}")
    out = os.path.join(tmp, "outputs.yaml")
    p = common.run_d2s(d2s, ["run", backward, "--inputs", in_path, "-o", out], tmp)
    if p.returncode != 0:
        raise Mismatch(f"running the backward graph exited {p.returncode}: "
                       f"{common.first_lines(p.stderr)}")
    doc = load_yaml(out)
    return doc[0]["outputs"] if isinstance(doc, list) else doc["outputs"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("d2s")
    ap.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "inplace"))
    args = ap.parse_args()
    d2s = os.path.abspath(args.d2s)
    passed = failed = skipped = 0
    for name in common.samples_in(args.samples, []):
        sample = os.path.abspath(os.path.join(args.samples, name + ".py"))
        sets = input_sets(os.path.join(args.samples, name + ".inputs.yaml"))
        inputs = gp.with_grad_inputs(sets[0])
        want, _, first_is_item = gp.torch_grads(sample, inputs, 0, 0)
        for route in ("trace", "parse"):
            case = f"{route}:{name}"
            with tempfile.TemporaryDirectory() as tmp:
                source, _ = gp.wrapper_source(sample, first_is_item)
                program = os.path.join(tmp, os.path.basename(sample))
                with open(program, "w", encoding="utf-8") as f:
                    f.write(source)
                in_path = common.write_set(tmp, "inputs.yaml", inputs, 0, 0)
                try:
                    outputs = static_grads(d2s, program, in_path, route, tmp)
                    if outputs is None:
                        print(f"SKIP {case}: d2s grad does not differentiate loops yet")
                        skipped += 1
                        continue
                    float_inputs = [k for k in inputs if k in want]
                    got = dict(zip(float_inputs, outputs[1:]))
                    gp.compare_grads(want, got)
                    print(f"PASS {case}")
                    passed += 1
                except Mismatch as e:
                    print(f"FAIL {case}: {e}")
                    failed += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
