#!/usr/bin/python3
"""`d2s grad`'s static backward graphs of module programs against PyTorch's .backward().

    static_grad_parity.py D2S --samples DIR

For every program of DIR and the first set of its inputs file, builds the static
backward graph of its trace (`d2s trace`, then `d2s grad`) and of its parsed graph
(`d2s parse --inputs`, then `d2s grad`), runs it with the module's weights (PyTorch's state_dict, as
grad_parity.py hands them over), and compares each gradient output (`grad_<name>`, an
input or a parameter) with PyTorch's for that name (rtol 1e-4, grad_parity.py's
compare). A gradient PyTorch has and the graph lacks fails. A parsed graph with a loop
is a SKIP when `d2s grad` says loops are not supported yet (docs/autograd.md). Exits 1
on a failure.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grad_parity as gp  # noqa: E402
import parity_common as common  # noqa: E402
from parity_common import Mismatch, input_sets, load_yaml  # noqa: E402


def output_names(graph):
    """The names of a graph file's outputs, by value id."""
    names = {v["id"]: v.get("name") for v in graph.get("inputs") or []}
    stack = [graph.get("nodes") or []]
    while stack:
        for node in stack.pop():
            for v in node.get("outputs") or []:
                names[v["id"]] = v.get("name")
            for block in node.get("blocks") or []:
                stack.append(block.get("nodes") or [])
    return [names.get(i) for i in graph["outputs"]]


def static_grads(d2s, program, in_path, weights, route, tmp):
    # Both routes get the inputs' dtypes and shapes (`d2s parse --inputs` lends them), so
    # int64 index inputs are known to need no gradient.
    extra = ["--weights", weights] if weights else []
    graph = os.path.join(tmp, route + ".yaml")
    p = common.run_d2s(d2s, [route, program, "--inputs", in_path, "-o", graph] + extra, tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s {route} exited {p.returncode}: {common.first_lines(p.stderr)}")
    backward = os.path.join(tmp, "backward.yaml")
    p = common.run_d2s(d2s, ["grad", graph, "-o", backward], tmp)
    if p.returncode != 0:
        if "prim::Loop is not supported yet" in p.stderr:
            return None
        raise Mismatch(f"d2s grad exited {p.returncode}: {common.first_lines(p.stderr)}")
    out = os.path.join(tmp, "outputs.yaml")
    p = common.run_d2s(d2s, ["run", backward, "--inputs", in_path, "-o", out] + extra, tmp)
    if p.returncode != 0:
        raise Mismatch(f"running the backward graph exited {p.returncode}: "
                       f"{common.first_lines(p.stderr)}")
    doc = load_yaml(out)
    outputs = doc[0]["outputs"] if isinstance(doc, list) else doc["outputs"]
    names = output_names(load_yaml(backward))
    got = {}
    for name, value in zip(names[1:], outputs[1:]):
        if name and name.startswith("grad_"):
            got[name[len("grad_"):]] = value
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("d2s")
    ap.add_argument("--samples", required=True)
    args = ap.parse_args()
    d2s = os.path.abspath(args.d2s)
    passed = failed = skipped = 0
    for name in common.samples_in(args.samples, []):
        sample = os.path.abspath(os.path.join(args.samples, name + ".py"))
        sets = input_sets(os.path.join(args.samples, name + ".inputs.yaml"))
        inputs = gp.with_grad_inputs(sets[0])
        want, state, first_is_item = gp.torch_grads(sample, inputs, 0, 0)
        for route in ("trace", "parse"):
            case = f"{route}:{name}"
            with tempfile.TemporaryDirectory() as tmp:
                source, _ = gp.wrapper_source(sample, first_is_item)
                program = os.path.join(tmp, os.path.basename(sample))
                with open(program, "w", encoding="utf-8") as f:
                    f.write(source)
                in_path = common.write_set(tmp, "inputs.yaml", inputs, 0, 0)
                weights = common.write_weights(tmp, state) if state is not None else None
                try:
                    got = static_grads(d2s, program, in_path, weights, route, tmp)
                    if got is None:
                        print(f"SKIP {case}: d2s grad does not differentiate loops yet")
                        skipped += 1
                        continue
                    gp.compare_grads(want, {k: got[k] for k in want if k in got})
                    print(f"PASS {case}")
                    passed += 1
                except Mismatch as e:
                    print(f"FAIL {case}: {e}")
                    failed += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
