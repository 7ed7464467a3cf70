"""Runs d2s's benchmarks and the PyTorch peer in one go; writes BENCHMARKS.md and
bench/results.json. scripts/bench.sh builds d2s (Release) and calls this:

    /usr/bin/python3 bench/run_bench.py BUILD_DIR [--quick]

Every figure is the median of the repetitions with their min and max; ratios are
d2s / peer on medians (below 1: d2s is faster).
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_programs  # noqa: E402
import ort_peer  # noqa: E402
import report  # noqa: E402


def stats(times):
    return {"median": statistics.median(times), "min": min(times), "max": max(times),
            "n": len(times)}


def run_google_benchmark(build, programs, quick, work):
    out = os.path.join(work, "d2s_bench.json")
    cmd = [os.path.join(build, "bench", "d2s_bench"), "--programs=" + programs,
           "--benchmark_out=" + out, "--benchmark_out_format=json",
           "--benchmark_repetitions=%d" % (3 if quick else 10),
           "--benchmark_min_time=%s" % ("0.02" if quick else "0.2")]
    if quick:
        cmd.append("--benchmark_filter=-statements:10000")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        data = json.load(f)
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        entry = runs.setdefault(b["run_name"], {"times": [], "counters": {}})
        entry["times"].append(b["real_time"] * scale[b["time_unit"]])
        for key in ("peak_storage_bytes", "baseline_storage_bytes", "liveness_bound_bytes",
                    "instructions", "ops", "top_nodes"):
            if key in b:
                entry["counters"][key] = b[key]
    return {name: {"time": stats(r["times"]), "counters": r["counters"]} for name, r in runs.items()}


def time_command(cmd, reps):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - start)
        if r.returncode not in (0, 1):  # d2s diff exits 1 when the routes differ
            raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr))
    return stats(times)


def count_nodes(graph_yaml):
    with open(graph_yaml) as f:
        return sum(1 for line in f if line.lstrip().startswith("- {kind:"))


def run_cli(build, programs, quick, work):
    """(f) d2s diff and (g) d2s render, timed as a user runs them (whole process)."""
    d2s = os.path.join(build, "cli", "d2s")
    loop = os.path.join(programs, "loop.py")
    results = {}
    for n in gen_programs.DIFF_NODES[:1] if quick else gen_programs.DIFF_NODES:
        inputs = os.path.join(programs, "loop_%d.inputs.yaml" % n)
        cmd = [d2s, "diff", loop, "--inputs", inputs, "--format", "json", "-o",
               os.path.join(work, "diff_%d.json" % n)]
        results["diff_%d" % n] = {"time": time_command(cmd, 2 if quick else 5)}
    for n in gen_programs.RENDER_NODES[:2] if quick else gen_programs.RENDER_NODES:
        inputs = os.path.join(programs, "loop_%d.inputs.yaml" % n)
        graph = os.path.join(work, "trace_%d.yaml" % n)
        subprocess.run([d2s, "trace", loop, "--inputs", inputs, "-o", graph], check=True)
        cmd = [d2s, "render", graph, "-o", os.path.join(work, "trace_%d.svg" % n)]
        results["render_%d" % n] = {"time": time_command(cmd, 2 if quick else 5),
                                    "counters": {"nodes": count_nodes(graph)}}
    return results


def machine():
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/cpuinfo") as f:
        avx512 = "avx512f" in f.read()
    compiler = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout
    return {"cpu": model, "cores": os.cpu_count(), "avx512": avx512,
            "kernel": platform.release(), "compiler": compiler.splitlines()[0],
            "loadavg_start": os.getloadavg()[0]}


def rewrite_report():
    """BENCHMARKS.md again from bench/results.json and the current bench/NOTES.md, with the
    figures of the last run unchanged (after editing the analysis in NOTES.md)."""
    with open(os.path.join(HERE, "results.json")) as f:
        saved = json.load(f)
    with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as f:
        f.write(report.markdown(saved["command"], saved["machine"], saved["rows"]))
    print("wrote BENCHMARKS.md from bench/results.json")


def main():
    if "--report-only" in sys.argv[1:]:
        rewrite_report()
        return
    build = sys.argv[1]
    quick = "--quick" in sys.argv[2:]
    work = os.path.join(build, "bench-work")
    programs = os.path.join(work, "programs")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_programs.py"), programs], check=True)
    info = machine()
    started = time.time()
    print("d2s_bench (Google Benchmark) ...", flush=True)
    d2s = run_google_benchmark(build, programs, quick, work)
    print("d2s diff / render ...", flush=True)
    d2s.update(run_cli(build, programs, quick, work))
    print("PyTorch peer (bench/peer.py) ...", flush=True)
    peer_out = os.path.join(work, "peer.json")
    cmd = ["/usr/bin/python3", os.path.join(HERE, "peer.py"), programs, peer_out]
    subprocess.run(cmd + (["--quick"] if quick else []), check=True)
    with open(peer_out) as f:
        peer = json.load(f)
    print("ONNX Runtime peer (bench/ort_peer.py) ...", flush=True)
    ort_times, ort_notes = ort_peer.run(os.path.join(build, "cli", "d2s"), programs,
                                        os.path.join(build, "ort"), quick,
                                        os.path.join(work, "onnx"))
    for workload, modes in ort_times.items():
        peer["results"].setdefault(workload, {}).update(modes)
    info["loadavg_end"] = os.getloadavg()[0]
    info["seconds"] = round(time.time() - started, 1)
    info["torch"] = peer["meta"]
    command = "scripts/bench.sh" + (" --quick" if quick else "")
    peer_stats = {k: {m: stats(t) if isinstance(t, list) else t for m, t in v.items()}
                  for k, v in peer["results"].items()}
    rows = report.compare(d2s, peer_stats, ort_notes)
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump({"command": command, "machine": info, "rows": rows}, f, indent=1)
    with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as f:
        f.write(report.markdown(command, info, rows))
    print("wrote BENCHMARKS.md and bench/results.json (%.0f s)" % info["seconds"])


if __name__ == "__main__":
    main()
