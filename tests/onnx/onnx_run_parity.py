"""`d2s run` of each sample's exported ONNX file against `d2s run` of the sample itself
(ctest onnx_run_parity, docs/onnx.md).

For every sample with an inputs file: d2s exports it by the parse route (the shapes of
set 0; dims that differ between the sets free, as the judge frees them), the importer
reads the file back and the reference executor runs it on every input set; each output
must equal the eager interpreter's (rtol 1e-5, atol 1e-6). Both sides use d2s's own
seeded parameters. ONNX has no default arguments, so the file gets the entry's defaults
where a set leaves them out. This checks the exporter and the importer against each
other and against eager mode, without onnxruntime.

`d2s code` of each file is then run by real PyTorch on every set (with the parameters
d2s's eager run used) and must give the same outputs: the ONNX -> IR -> Python round trip.

Then programs/export_call.py runs in `d2s run`: its torch.onnx.export call (with
dynamic_axes) writes model.onnx, whose input's batch dim must be free, and `d2s run` of
that file at batch 3 must print what the program's eager model printed.

    onnx_run_parity.py D2S [--samples DIR]

With --samples, checks DIR's programs instead of samples/ (and not export_call.py).
"""

import inspect
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "parity"))
import parity_common as pc  # noqa: E402  (exits 2 without torch, numpy, yaml)
from onnx_judge import NOT_EXPORTED, check_refused, full_args  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
import yaml  # noqa: E402


def outputs_of(d2s, args, out, cwd):
    p = subprocess.run([d2s] + args + ["-o", out], capture_output=True, text=True, timeout=120,
                       cwd=cwd)
    if p.returncode != 0:
        raise pc.Mismatch(f"d2s {args[0]} failed: {pc.first_lines(p.stderr)}")
    doc = pc.load_yaml(out)
    return [d["outputs"] for d in (doc if isinstance(doc, list) else [doc])]


def flat(value):
    """An output as a list of float64 arrays: a tensor, a number, or the items of a tuple
    (the file has one output per item)."""
    if isinstance(value, dict) and "data" in value:
        return [np.array(pc.flatten(value["data"]), dtype=np.float64).reshape(value["shape"])]
    if isinstance(value, list):
        return [a for v in value for a in flat(v)]
    return [np.array(float(value))]


SAMPLES = pc.DEFAULT_SAMPLES  # --samples DIR checks another folder's programs


def check(d2s, sample, tmp):
    path = os.path.join(SAMPLES, sample + ".py")
    inputs = os.path.join(SAMPLES, sample + ".inputs.yaml")
    sets = pc.load_sets(inputs)
    full = [pc.explicit_seeds(full_args(path, s), i, 0) for i, s in enumerate(sets)]
    full_file = os.path.join(tmp, sample + ".full.yaml")
    with open(full_file, "w", encoding="utf-8") as f:
        yaml.safe_dump(full, f, default_flow_style=None)
    dynamic = []
    shapes = [{k: v["shape"] for k, v in s.items() if isinstance(v, dict) and "shape" in v}
              for s in full]
    for k, shape in shapes[0].items():
        for d in range(len(shape)):
            if len({tuple(s[k])[d] if k in s and len(s[k]) > d else None for s in shapes}) > 1:
                dynamic += ["--dynamic-axes", f"{k}:{d}={k}_{d}"]
    onnx_file = os.path.join(tmp, sample + ".onnx")
    set0 = pc.write_set(tmp, sample + ".set0.yaml", sets[0], 0, 0)
    p = subprocess.run([d2s, "export", path, "--inputs", set0, "-o", onnx_file] + dynamic,
                       capture_output=True, text=True, timeout=120, cwd=tmp)
    if p.returncode != 0:
        raise pc.Mismatch(f"d2s export failed: {pc.first_lines(p.stderr)}")
    weights = os.path.join(tmp, sample + ".weights.yaml")
    eager = outputs_of(d2s, ["run", path, "--inputs", full_file, "--dump-weights", weights],
                       os.path.join(tmp, "eager.yaml"), tmp)
    from_file = outputs_of(d2s, ["run", onnx_file, "--inputs", full_file],
                           os.path.join(tmp, "onnx.yaml"), tmp)
    for i, (want, got) in enumerate(zip(eager, from_file)):
        w, g = flat(want), flat(got)
        if len(w) != len(g):
            raise pc.Mismatch(f"set {i}: {len(g)} outputs from the file, eager {len(w)}")
        for j, (a, b) in enumerate(zip(g, w)):
            if a.shape != b.shape:
                raise pc.Mismatch(f"set {i} output {j}: shape {list(a.shape)}, eager {list(b.shape)}")
            if not np.allclose(a, b, rtol=pc.RTOL, atol=pc.ATOL, equal_nan=True):
                raise pc.Mismatch(f"set {i} output {j}: max abs diff {np.nanmax(np.abs(a - b)):.3g}")
    check_code(d2s, sample, onnx_file, full, eager, weights, tmp)
    return len(sets)


def check_code(d2s, sample, onnx_file, sets, eager, weights, tmp):
    """`d2s code` of the file: real PyTorch runs the emitted function on every set, with
    the parameters d2s's eager run used, and must give d2s's eager outputs."""
    code_file = os.path.join(tmp, sample + "_onnx_code.py")
    p = subprocess.run([d2s, "code", onnx_file, "-o", code_file], capture_output=True, text=True,
                       timeout=120, cwd=tmp)
    if p.returncode != 0:
        raise pc.Mismatch(f"d2s code failed: {pc.first_lines(p.stderr)}")
    with open(code_file, encoding="utf-8") as f:
        text = f.read()
    scope = {"__name__": "onnx_code"}
    exec(compile(text, code_file, "exec"), scope)
    fns = [v for k, v in scope.items() if inspect.isfunction(v)]
    if len(fns) != 1:
        raise pc.Mismatch(f"the code defines {len(fns)} functions")
    # `#   linear1_weight: linear1.weight`: the argument of each state_dict entry.
    state_names = dict(re.findall(r"^#   (\w+): (\S+)$", text, re.M))
    state = pc.load_yaml(weights) or {} if os.path.exists(weights) else {}
    params = list(inspect.signature(fns[0]).parameters)
    for i, (s, want) in enumerate(zip(sets, eager)):
        args = []
        for name in params:
            if name in s:
                args.append(pc.make_value(s[name], name, i, 0))
            elif name in state_names:
                args.append(pc.make_tensor(state[state_names[name]], name, i, 0))
            else:
                raise pc.Mismatch(f"the code's argument '{name}' is neither an input nor a "
                                  "parameter")
        with torch.no_grad():
            result = fns[0](*args)
        got = [np.array(r.detach().to(torch.float64).numpy() if isinstance(r, torch.Tensor)
                        else float(r)) for r in pc.expected_outputs(result)]
        w = flat(want)
        if len(got) != len(w):
            raise pc.Mismatch(f"code, set {i}: {len(got)} outputs, eager {len(w)}")
        for j, (a, b) in enumerate(zip(got, w)):
            if a.shape != b.shape or not np.allclose(a, b, rtol=pc.RTOL, atol=pc.ATOL,
                                                     equal_nan=True):
                raise pc.Mismatch(f"code, set {i} output {j}: PyTorch gives {pc.short(a.tolist())}, "
                                  f"eager {pc.short(b.tolist())}")


def check_export_call(d2s, tmp):
    """programs/export_call.py's file against the eager outputs it printed."""
    cwd = os.path.join(tmp, "export_call")
    os.makedirs(cwd)
    p = subprocess.run([d2s, "run", os.path.join(HERE, "programs", "export_call.py"), "--entry",
                        "<module>"], capture_output=True, text=True, timeout=120, cwd=cwd)
    if p.returncode != 0:
        raise pc.Mismatch(f"d2s run failed: {pc.first_lines(p.stderr)}")
    lines = p.stdout.splitlines()
    if lines[0] != "training after export: True":
        raise pc.Mismatch(f"the model's mode was not restored: {lines[0]!r}")
    eager = np.array([float(v) for v in lines[1:7]], dtype=np.float64)
    model = os.path.join(cwd, "model.onnx")
    with open(model, "rb") as f:
        if b"batch_size" not in f.read():
            raise pc.Mismatch("model.onnx has no dim_param 'batch_size'")
    base = np.arange(30, dtype=np.float32).reshape(3, 10) / np.float32(30)
    inputs = os.path.join(cwd, "in.yaml")
    with open(inputs, "w", encoding="utf-8") as f:
        for x in (base - np.float32(0.5), base + np.float32(0.5)):
            f.write(f"- input: {{shape: [3, 10], data: {x.reshape(-1).tolist()}}}\n")
    got = outputs_of(d2s, ["run", model, "--inputs", inputs], os.path.join(cwd, "out.yaml"), cwd)
    got = np.concatenate([a.reshape(-1) for o in got for a in flat(o)])
    if got.shape != eager.shape or not np.allclose(got, eager, rtol=pc.RTOL, atol=pc.ATOL):
        raise pc.Mismatch(f"the file gives {got.tolist()}, the eager model {eager.tolist()}")


def main():
    d2s = os.path.abspath(sys.argv[1])
    global SAMPLES
    own_samples = "--samples" in sys.argv
    if own_samples:
        SAMPLES = os.path.abspath(sys.argv[sys.argv.index("--samples") + 1])
    samples = sorted(f[:-3] for f in os.listdir(SAMPLES)
                     if f.endswith(".py") and os.path.exists(
                         os.path.join(SAMPLES, f[:-3] + ".inputs.yaml")))
    failed = refused = 0
    with tempfile.TemporaryDirectory() as tmp:
        for s in samples:
            if s in NOT_EXPORTED:  # the export must fail with the catalogued message
                problem = check_refused(d2s, s, tmp)
                print(("refused " if not problem else "FAIL ") + s + ": " +
                      (problem or NOT_EXPORTED[s]), flush=True)
                failed += bool(problem)
                refused += not problem
                continue
            try:
                n = check(d2s, s, tmp)
                print(f"ok   {s} ({n} input sets)", flush=True)
            except pc.Mismatch as e:
                print(f"FAIL {s}: {e}", flush=True)
                failed += 1
        try:
            if not own_samples:
                check_export_call(d2s, tmp)
                print("ok   torch.onnx.export in d2s run (programs/export_call.py, batch 3)")
        except pc.Mismatch as e:
            print(f"FAIL torch.onnx.export in d2s run: {e}")
            failed += 1
    print(f"{len(samples) - failed - refused} of {len(samples)} samples: d2s run of the exported "
          f"file equals d2s run eager on every input set; {refused} refused as NOT_EXPORTED says")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
