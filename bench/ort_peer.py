"""ONNX Runtime as d2s's second peer (issue 21): each workload is exported to ONNX by
`d2s export` (the parse route, so (b)'s loop stays one ONNX Loop) and timed in
onnxruntime-node (bench/ort_bench.js): session created once, only `run` calls timed,
with one thread and with as many threads as cores. Used by bench/run_bench.py.

ONNX Runtime comes from npm (onnxruntime-node@1.30.0, installed without its install
script into the build folder, as the ONNX tests do); without npm the rows have no
ONNX Runtime column and the run says why.
"""
import json
import os
import subprocess

import gen_programs

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_VERSION = "onnxruntime-node@1.30.0"


def _floats(shapes):
    return [(name, list(shape)) for name, shape in shapes]


# (workload key as peer.py names it, program, [(input, shape or int)], calls per repetition)
WORKLOADS = [
    ("chain_1", "chain.py", _floats([("x", [1, 1])]), 20),
    ("chain_8", "chain.py", _floats([("x", [8, 8])]), 20),
    ("rnn", "rnn.py", _floats([("x", [1, 16]), ("h", [1, 16]), ("W", [16, 16]),
                               ("U", [16, 16]), ("b", [16])])
     + [("steps", gen_programs.RNN_STEPS)], 1),
    ("mlp", "mlp.py", _floats([("x", [64, 784]), ("w1", [512, 784]), ("b1", [512]),
                               ("w2", [512, 512]), ("b2", [512]), ("w3", [10, 512]),
                               ("b3", [10])]), 10),
    ("matmul", "matmul.py", _floats([("a", [1024, 1024]), ("b", [1024, 1024])]), 1),
    ("lstm", "lstm.py", _floats(gen_programs.LSTM_SHAPES.items()), 1),
    ("resnet_block", "resnet_block.py", _floats(gen_programs.RESNET_BLOCK_SHAPES.items()), 1),
]


def install(ort_dir):
    """onnxruntime-node in ort_dir (once); None when it is there, else why it is not."""
    if os.path.isfile(os.path.join(ort_dir, "node_modules", "onnxruntime-node", "package.json")):
        return None
    try:
        subprocess.run(["npm", "install", "--prefix", ort_dir, "--ignore-scripts", "--no-audit",
                        "--no-fund", "--loglevel=error", ORT_VERSION], check=True,
                       capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return "npm install %s failed: %s" % (ORT_VERSION, getattr(e, "stderr", "") or e)
    return None


def export(d2s, programs, name, program, inputs, work):
    """The workload as an ONNX file written by d2s export, or (None, d2s's message)."""
    yaml_path = os.path.join(work, name + ".inputs.yaml")
    with open(yaml_path, "w") as f:
        for i, (arg, value) in enumerate(inputs):
            if isinstance(value, list):
                f.write("%s: {shape: %s, fill: randn, seed: %d}\n" % (arg, value, i + 1))
            else:
                f.write("%s: %d\n" % (arg, value))
    model = os.path.join(work, name + ".onnx")
    r = subprocess.run([d2s, "export", os.path.join(programs, program), "--inputs", yaml_path,
                        "-o", model], capture_output=True, text=True)
    if r.returncode != 0:
        first = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
        return None, first.split("error: ", 1)[-1]  # without the generated file's path
    return model, None


def time_model(ort_dir, model, inputs, threads, reps, batch):
    feeds = {arg: ({"type": "float32", "dims": v} if isinstance(v, list)
                   else {"type": "int64", "value": v}) for arg, v in inputs}
    request = {"model": model, "threads": threads, "reps": reps, "batch": batch, "warmup": 2,
               "feeds": feeds}
    r = subprocess.run(["node", os.path.join(HERE, "ort_bench.js")], input=json.dumps(request),
                       capture_output=True, text=True, env=dict(os.environ, D2S_ORT_DIR=ort_dir))
    if r.returncode != 0:
        raise RuntimeError("onnxruntime failed on %s: %s" % (model, r.stderr.strip()))
    return json.loads(r.stdout)["times"]


def run(d2s, programs, ort_dir, quick, work):
    """({workload: {"ort 1 thread": times, "ort N threads": times}}, {workload: why not})."""
    os.makedirs(work, exist_ok=True)
    missing = install(ort_dir)
    if missing:
        return {}, {name: missing for name, *_ in WORKLOADS}
    cores = os.cpu_count() or 1
    times, notes = {}, {}
    for name, program, inputs, batch in WORKLOADS:
        model, refused = export(d2s, programs, name, program, inputs, work)
        if model is None:
            notes[name] = "d2s export refused it: " + refused
            continue
        times[name] = {}
        for threads in sorted({1, cores}):
            mode = "ort %d thread%s" % (threads, "" if threads == 1 else "s")
            times[name][mode] = time_model(ort_dir, model, inputs, threads, 3 if quick else 10,
                                           batch)
    return times, notes
