"""The PyTorch peer of d2s's benchmarks: the same generated programs, run by PyTorch.

    /usr/bin/python3 bench/peer.py PROGRAMS_DIR OUT.json [--quick]

For each workload and mode (eager, torch.jit.script, torch.jit.trace, and oneDNN via
torch.utils.mkldnn for the MLP and matmul; for the MLP's training step, eager and the
forward through torch.jit.script) it records the seconds of each repetition
(one call, or the mean of a batch of calls for the fast ones). The frontend workloads
time torch.jit.script / torch.jit.trace of a freshly loaded copy of each program.
Peak memory is the most bytes of tensors allocated at once during one eager run
(torch.profiler's memory events), as d2s counts its executor's tensor storage.
"""
import importlib.util
import itertools
import json
import os
import subprocess
import sys
import time
import warnings

import torch
import torch.nn as nn
import torch.utils.mkldnn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_programs  # noqa: E402

_fresh = itertools.count()


def load(programs, name, attr):
    """The function `attr` of programs/name, from a fresh module object each time (so
    that torch.jit.script does not return a cached compilation)."""
    path = os.path.join(programs, name)
    spec = importlib.util.spec_from_file_location("bench_prog_%d" % next(_fresh), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, attr)


def repeat(fn, reps, batch=1, warmup=1):
    """Seconds per call of each of `reps` repetitions of `batch` calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append((time.perf_counter() - start) / batch)
    return times


def rand(*shape, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=g) * 2 - 1


def bench_chain(programs, reps, results):
    chain = load(programs, "chain.py", "chain")
    for n in (1, 8):
        x = rand(n, n, seed=1)
        scripted = torch.jit.script(chain)
        traced = torch.jit.trace(chain, (x,))
        results["chain_%d" % n] = {
            "eager": repeat(lambda: chain(x), reps, batch=5),
            "script": repeat(lambda: scripted(x), reps, batch=5, warmup=3),
            "trace": repeat(lambda: traced(x), reps, batch=5, warmup=3),
        }


def bench_rnn(programs, reps, results):
    rnn = load(programs, "rnn.py", "rnn")
    args = (rand(1, 16, seed=1), rand(1, 16, seed=2), rand(16, 16, seed=3),
            rand(16, 16, seed=4), rand(16, seed=5))
    steps = gen_programs.RNN_STEPS
    scripted = torch.jit.script(rnn)
    results["rnn"] = {
        "eager": repeat(lambda: rnn(*args, steps), reps),
        "script": repeat(lambda: scripted(*args, steps), reps, warmup=3),
    }


def bench_lstm(programs, reps, results):
    lstm = load(programs, "lstm.py", "lstm")
    args = [rand(*shape, seed=i + 1) for i, shape in enumerate(gen_programs.LSTM_SHAPES.values())]
    scripted = torch.jit.script(lstm)
    traced = torch.jit.trace(lstm, tuple(args))
    with torch.no_grad():
        results["lstm"] = {
            "eager": repeat(lambda: lstm(*args), reps),
            "script": repeat(lambda: scripted(*args), reps, warmup=2),
            "trace": repeat(lambda: traced(*args), reps, warmup=2),
        }


def bench_resnet_block(programs, reps, results):
    block = load(programs, "resnet_block.py", "resnet_block")
    args = [rand(*shape, seed=i + 1)
            for i, shape in enumerate(gen_programs.RESNET_BLOCK_SHAPES.values())]
    scripted = torch.jit.script(block)
    traced = torch.jit.trace(block, tuple(args))
    with torch.no_grad():  # eager's convolution is oneDNN's (torch.backends.mkldnn)
        results["resnet_block"] = {
            "eager": repeat(lambda: block(*args), reps, warmup=2),
            "script": repeat(lambda: scripted(*args), reps, warmup=3),
            "trace": repeat(lambda: traced(*args), reps, warmup=3),
        }


def mlp_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                         nn.Linear(512, 10)).eval()


def bench_mlp(programs, reps, results):
    mlp = load(programs, "mlp.py", "mlp")
    model = mlp_model()
    x = rand(64, 784, seed=1)
    weights = [p.detach() for p in model.parameters()]
    scripted = torch.jit.script(mlp)
    traced = torch.jit.trace(mlp, (x, *weights))
    onednn = torch.utils.mkldnn.to_mkldnn(model)
    xm = x.to_mkldnn()
    with torch.no_grad():
        results["mlp"] = {
            "eager": repeat(lambda: mlp(x, *weights), reps, batch=10),
            "script": repeat(lambda: scripted(x, *weights), reps, batch=10, warmup=3),
            "trace": repeat(lambda: traced(x, *weights), reps, batch=10, warmup=3),
            "mkldnn": repeat(lambda: onednn(xm).to_dense(), reps, batch=10, warmup=3),
        }


def bench_matmul(programs, reps, results):
    mm = load(programs, "matmul.py", "matmul")
    a, b = rand(1024, 1024, seed=1), rand(1024, 1024, seed=2)
    scripted = torch.jit.script(mm)
    traced = torch.jit.trace(mm, (a, b))
    # oneDNN's matrix product: an nn.Linear without bias whose weight is b^T.
    linear = nn.Linear(1024, 1024, bias=False).eval()
    with torch.no_grad():
        linear.weight.copy_(b.t())
        onednn = torch.utils.mkldnn.to_mkldnn(linear)
        am = a.to_mkldnn()
        results["matmul"] = {
            "eager": repeat(lambda: mm(a, b), max(2, reps // 2)),
            "script": repeat(lambda: scripted(a, b), max(2, reps // 2)),
            "trace": repeat(lambda: traced(a, b), max(2, reps // 2)),
            "mkldnn": repeat(lambda: onednn(am).to_dense(), reps, batch=5, warmup=3),
        }


def bench_train(programs, reps, results):
    """(i) train_mlp.py's training steps: `train_step` (eager) and `train_step_compiled`,
    whose model call goes through torch.compile; PyTorch 1.13 has none, so it is
    torch.jit.script here (a scripted forward, eager backward and Adam step)."""
    had_compile = hasattr(torch, "compile")
    if not had_compile:
        torch.compile = torch.jit.script
    try:
        torch.manual_seed(0)
        step = load(programs, "train_mlp.py", "train_step")
        compiled_step = step.__globals__["train_step_compiled"]
    finally:
        if not had_compile:
            del torch.compile
    x = rand(64, 784, seed=1)
    y = torch.tensor([(i * 7) % 10 for i in range(64)])
    eager = repeat(lambda: step(x, y), reps, warmup=2)
    results["train_eager"] = {"eager": eager}
    results["train_compiled"] = {
        "eager": eager,
        "script": repeat(lambda: compiled_step(x, y), reps, warmup=3),
    }


def time_frontend(programs, name, entry, mode, reps):
    x = rand(4, seed=1)
    if mode == "script":
        return repeat(lambda: torch.jit.script(load(programs, name, entry)), reps, warmup=0)
    return repeat(lambda: torch.jit.trace(load(programs, name, entry), (x,)), reps, warmup=0)


def bench_frontend(programs, reps, sizes, results):
    for kind in ("straight", "nested"):
        for n in sizes:
            name = "%s_%d.py" % (kind, n)
            entry = "chain" if kind == "straight" else "nested"
            entry_results = {}
            for mode in ("script", "trace"):
                if n < 10000:
                    entry_results[mode] = time_frontend(programs, name, entry, mode, reps)
                    continue
                # The biggest programs in a child process: PyTorch 1.13 has crashed
                # (SIGSEGV) on them, and one crash should not lose the whole run.
                child = subprocess.run(
                    [sys.executable, __file__, programs, "--frontend", name, entry, mode],
                    capture_output=True, text=True)
                if child.returncode == 0:
                    entry_results[mode] = json.loads(child.stdout)
                else:
                    entry_results[mode] = {"failed": "exit code %d" % child.returncode}
            results["frontend_%s_%d" % (kind, n)] = entry_results


def peak_memory(programs, which):
    """Peak bytes of tensors allocated during one eager run (inputs and weights made
    before it are not counted), from the profiler's allocation and free events."""
    if which == "mlp":
        mlp = load(programs, "mlp.py", "mlp")
        weights = [p.detach() for p in mlp_model().parameters()]
        x = rand(64, 784, seed=1)
        run = lambda: mlp(x, *weights)  # noqa: E731
    else:
        rnn = load(programs, "rnn.py", "rnn")
        args = (rand(1, 16, seed=1), rand(1, 16, seed=2), rand(16, 16, seed=3),
                rand(16, 16, seed=4), rand(16, seed=5))
        run = lambda: rnn(*args, gen_programs.RNN_STEPS)  # noqa: E731
    activities = [torch.profiler.ProfilerActivity.CPU]
    with torch.no_grad(), torch.profiler.profile(activities=activities,
                                                 profile_memory=True) as prof:
        out = run()
        del out
    # Allocations are an op's own memory at its start; frees are "[memory]" events.
    points = []
    for e in prof.events():
        if e.name == "[memory]":
            points.append((e.time_range.start, e.cpu_memory_usage))
        elif e.self_cpu_memory_usage:
            points.append((e.time_range.start, e.self_cpu_memory_usage))
    live = peak = 0
    for _, nbytes in sorted(points):
        live += nbytes
        peak = max(peak, live)
    return peak


def main():
    programs = sys.argv[1]
    if sys.argv[2] == "--frontend":
        warnings.filterwarnings("ignore")
        print(json.dumps(time_frontend(programs, *sys.argv[3:6], reps=2)))
        return
    out = sys.argv[2]
    quick = "--quick" in sys.argv[3:]
    torch.set_num_threads(2)
    warnings.filterwarnings("ignore")  # TracerWarnings of the nested programs
    reps = 3 if quick else 10
    results = {}
    bench_chain(programs, reps, results)
    bench_rnn(programs, 2 if quick else 5, results)
    bench_mlp(programs, reps, results)
    bench_matmul(programs, reps, results)
    bench_train(programs, reps, results)
    bench_lstm(programs, reps, results)
    bench_resnet_block(programs, reps, results)
    sizes = [100, 1000] if quick else gen_programs.FRONTEND_SIZES
    bench_frontend(programs, 2 if quick else 3, sizes, results)
    for which in ("mlp", "rnn"):
        results["memory_" + which] = {"eager_peak_tensor_bytes": peak_memory(programs, which)}
    meta = {
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "mkldnn": torch.backends.mkldnn.is_available(),
    }
    with open(out, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
