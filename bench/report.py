"""Turns d2s's and the peer's measurements into comparison rows (bench/results.json)
and the tables of BENCHMARKS.md. Used by bench/run_bench.py."""
import re

# (row, d2s benchmark, peer workload, peer mode the target compares with, target ratio)
TIMED = [
    ("(a) chain of 1,000 ops, 1x1", "BM_Chain/1", "chain_1", "script", 0.05),
    ("(a) chain of 1,000 ops, 8x8", "BM_Chain/8", "chain_8", "script", 0.05),
    ("(b) RNN cell, 10,000-step loop", "BM_Rnn/10000", "rnn", "script", 0.1),
    ("(c) MLP 64x784-512-512-10", "BM_Mlp", "mlp", "mkldnn", 1.5),
    ("(d) matmul 1024x1024", "BM_Matmul/1024", "matmul", "mkldnn", 1.5),
    ("(i) MLP training step (forward, loss, backward, Adam), eager half",
     "BM_TrainStep/compiled:0", "train_eager", "eager", 1.0),
    ("(i) MLP training step (forward, loss, backward, Adam), compiled half",
     "BM_TrainStep/compiled:1", "train_compiled", "eager", 1.0),
    ("(j) LSTM layer, 32 steps, batch 8, 64 -> 128", "BM_Lstm", "lstm", "eager", 1.0),
    ("(k) ResNet basic block, 4x64x32x32, inference", "BM_ResnetBlock", "resnet_block",
     "eager", 2.0),
]
# The Debian default path (reference BLAS) d2s must beat 20 times: ratio <= 0.05.
DEFAULT_PATH = {"mlp": 0.05, "matmul": 0.05}
# Issue 21's targets against ONNX Runtime (its faster thread count), where it ran.
ORT_TARGETS = {"chain_1": 1.0, "chain_8": 1.0, "mlp": 1.2, "matmul": 1.2}


def clean(name):
    return re.sub(r"/(repeats|min_time):[^/]*", "", name)


def ratio(a, b):
    return a / b if b else None


def compare(d2s, peer, ort_notes=None):
    ort_notes = ort_notes or {}
    d2s = {clean(k): v for k, v in d2s.items()}
    rows = []
    for title, bench, workload, mode, target in TIMED:
        if bench not in d2s or workload not in peer:
            continue
        mine = d2s[bench]["time"]
        peers = peer[workload]
        ratios = {m: ratio(mine["median"], s["median"]) for m, s in peers.items()}
        row = {"workload": title, "d2s": mine, "peer": peers, "ratios": ratios,
               "target": "<= %g x %s" % (target, mode), "met": ratios[mode] <= target}
        ops = d2s[bench]["counters"].get("ops")
        if workload.startswith("chain"):
            per_op = mine["median"] / ops
            row["note"] = "%.0f ns per op (target < 100 ns)" % (per_op * 1e9)
            row["met"] = row["met"] and per_op < 100e-9
        if workload in DEFAULT_PATH:
            limit = DEFAULT_PATH[workload]
            fast_enough = ratios["eager"] <= limit
            row["target"] += "; <= %g x eager (Debian's BLAS)" % limit
            row["met"] = row["met"] and fast_enough
        ort = {m: r for m, r in ratios.items() if m.startswith("ort")}
        if workload in ORT_TARGETS:
            limit = ORT_TARGETS[workload]
            row["target"] += "; <= %g x ONNX Runtime" % limit
            if ort:
                # Against the faster ONNX Runtime session: the largest d2s / peer ratio.
                row["met"] = row["met"] and max(ort.values()) <= limit
            else:
                row["met"] = False
        if workload in ort_notes:
            note = "ONNX Runtime: " + ort_notes[workload]
            row["note"] = row["note"] + "<br>" + note if row.get("note") else note
        if workload == "train_compiled" and "BM_TrainStep/compiled:0" in d2s:
            # Issue 18: the compiled half must be no slower than d2s's eager half.
            to_eager_half = mine["median"] / d2s["BM_TrainStep/compiled:0"]["time"]["median"]
            row["note"] = "compiled / eager half: %.3g (target <= 1)" % to_eager_half
            row["target"] += "; <= 1 x d2s eager half"
            row["met"] = row["met"] and to_eager_half <= 1.0
        rows.append(row)
    for kind, nested in (("straight", 0), ("nested", 1)):
        for n in (100, 1000, 10000):
            workload = "frontend_%s_%d" % (kind, n)
            for route, mode in (("Parse", "script"), ("Trace", "trace")):
                bench = "BM_%s/nested:%d/statements:%d" % (route, nested, n)
                if bench not in d2s or workload not in peer:
                    continue
                mine = d2s[bench]["time"]
                theirs = peer[workload].get(mode, {})
                if "median" not in theirs:  # the peer crashed (peer.py notes it)
                    rows.append({"workload": "(e) d2s %s, %s, %d statements" % (
                        route.lower(), kind, n), "d2s": mine, "peer": {}, "ratios": {},
                        "target": "<= 0.02 x %s" % mode, "met": False,
                        "note": "torch.jit.%s failed: %s" % (mode, theirs.get("failed"))})
                    continue
                r = ratio(mine["median"], theirs["median"])
                rows.append({"workload": "(e) d2s %s, %s, %d statements" % (route.lower(), kind, n),
                             "d2s": mine, "peer": {mode: peer[workload][mode]},
                             "ratios": {mode: r}, "target": "<= 0.02 x %s" % mode,
                             "met": r <= 0.02})
    for n in (10000, 100000):
        key = "diff_%d" % n
        if key in d2s:
            mine = d2s[key]["time"]
            row = {"workload": "(f) d2s diff, %d-node trace" % n, "d2s": mine, "peer": {},
                   "ratios": {}, "target": "< 0.7 s at 100,000 nodes", "met": mine["median"] < 0.7}
            if n == 100000 and "diff_10000" in d2s:
                growth = mine["median"] / d2s["diff_10000"]["time"]["median"]
                row["note"] = "10x the nodes took %.1fx the time" % growth
            rows.append(row)
    for n in (100, 1000, 10000):
        key = "render_%d" % n
        if key in d2s:
            mine = d2s[key]["time"]
            nodes = d2s[key]["counters"]["nodes"]
            rows.append({"workload": "(g) d2s render, %d-node trace" % n, "d2s": mine, "peer": {},
                         "ratios": {}, "target": "< 2 s", "met": mine["median"] < 2.0,
                         "note": "%d nodes in the graph file" % nodes})
    for workload, bench in (("mlp", "BM_Mlp"), ("rnn", "BM_Rnn/10000")):
        key = "memory_" + workload
        if bench not in d2s or key not in peer:
            continue
        c = d2s[bench]["counters"]
        grown = c["peak_storage_bytes"] - c["baseline_storage_bytes"]
        eager = peer[key]["eager_peak_tensor_bytes"]
        bound = c["liveness_bound_bytes"]
        to_bound = ratio(grown, bound)
        rows.append({"workload": "(h) peak tensor memory, %s" % workload,
                     "memory": {"d2s_peak_during_run": grown, "eager_peak_during_run": eager,
                                "d2s_peak_total": c["peak_storage_bytes"],
                                "liveness_bound": bound},
                     "ratios": {"eager": ratio(grown, eager), "liveness_bound": to_bound},
                     "target": "<= 1 x eager; <= 1.1 x liveness bound",
                     "met": grown <= eager and to_bound is not None and to_bound <= 1.1})
    return rows


def fmt_time(s):
    if s >= 1:
        return "%.2f s" % s
    if s >= 1e-3:
        return "%.2f ms" % (s * 1e3)
    return "%.1f us" % (s * 1e6)


def fmt_stats(st):
    return "%s (%s-%s)" % (fmt_time(st["median"]), fmt_time(st["min"]), fmt_time(st["max"]))


def fmt_ratio(r):
    return "-" if r is None else ("%.3g" % r)


def markdown_rows(rows):
    out = ["| workload | d2s median (min-max) | peer median (min-max) | d2s / peer | target | met |",
           "|---|---|---|---|---|---|"]
    for row in rows:
        if "memory" in row:
            continue
        peers = "<br>".join("%s: %s" % (m, fmt_stats(s)) for m, s in row["peer"].items()) or "-"
        ratios = "<br>".join("%s: %s" % (m, fmt_ratio(r)) for m, r in row["ratios"].items()) or "-"
        note = ("<br>" + row["note"]) if row.get("note") else ""
        out.append("| %s | %s%s | %s | %s | %s | %s |" % (
            row["workload"], fmt_stats(row["d2s"]), note, peers, ratios, row["target"],
            "yes" if row["met"] else "**no**"))
    out += ["", "| memory | d2s peak during the run | PyTorch eager peak | d2s peak during the "
            "run / liveness bound | target | met |", "|---|---|---|---|---|---|"]
    for row in rows:
        if "memory" not in row:
            continue
        m = row["memory"]
        out.append("| %s | %d B | %d B | %d B / %d B = %s | %s | %s |" % (
            row["workload"], m["d2s_peak_during_run"], m["eager_peak_during_run"],
            m["d2s_peak_during_run"], m["liveness_bound"],
            fmt_ratio(row["ratios"]["liveness_bound"]),
            row["target"], "yes" if row["met"] else "**no**"))
    return "\n".join(out) + "\n"


def markdown(command, info, rows):
    notes_path = __file__.replace("report.py", "NOTES.md")
    with open(notes_path) as f:
        notes = f.read()
    met = sum(1 for r in rows if r["met"])
    head = [
        "# Benchmarks",
        "",
        "Written by `%s` (do not edit by hand: the analysis below comes from "
        "bench/NOTES.md). d2s and PyTorch ran on the same workloads in the same run." % command,
        "",
        "- machine: %s, %d cores, AVX-512 %s; %s; Linux %s" % (
            info["cpu"], info["cores"], "yes" if info["avx512"] else "no", info["compiler"],
            info["kernel"]),
        "- PyTorch %s (Debian), %d threads, oneDNN %s" % (
            info["torch"]["torch"], info["torch"]["threads"],
            "on" if info["torch"]["mkldnn"] else "off"),
        "- load average %.2f at the start, %.2f at the end; the run took %.0f s" % (
            info["loadavg_start"], info["loadavg_end"], info["seconds"]),
        "- %d of %d targets met" % (met, len(rows)),
        "",
        "Times are per call: median over the repetitions (min-max). Ratios are d2s / peer "
        "on medians: below 1, d2s is faster. Peer modes: `eager`, `script` "
        "(torch.jit.script), `trace` (torch.jit.trace), `mkldnn` (oneDNN through "
        "torch.utils.mkldnn), `ort 1 thread` / `ort N threads` (onnxruntime-node 1.30 on "
        "the file `d2s export` wrote; the ONNX Runtime target compares with the faster of "
        "the two).",
        "",
    ]
    return "\n".join(head) + "\n" + markdown_rows(rows) + "\n" + notes
