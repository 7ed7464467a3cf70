#!/usr/bin/env bash
# Builds d2s (Release, in build-bench/ unless D2S_BUILD says otherwise) and benchmarks
# it against PyTorch on the same workloads in one run: Google Benchmark programs
# (bench/d2s_bench), d2s diff/render, bench/peer.py, and ONNX Runtime on the files
# d2s export writes (bench/ort_peer.py, onnxruntime-node from npm into the build
# folder). Writes BENCHMARKS.md and
# bench/results.json.
#   scripts/bench.sh           the full run (several minutes)
#   scripts/bench.sh --quick   fewer repetitions and sizes (under a minute on an idle machine)
#   scripts/bench.sh --report-only   BENCHMARKS.md again from bench/results.json and
#                                    bench/NOTES.md, without running anything
set -euo pipefail
if [ "${1:-}" = "--report-only" ]; then
  exec /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/../bench/run_bench.py" --report-only
fi
D2S_BUILD="${D2S_BUILD:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build-bench}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
d2s_install_packages
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$D2S_ROOT" -B "$D2S_BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DD2S_BENCH=ON \
  >/dev/null
cmake --build "$D2S_BUILD" -j "$(nproc)" --target d2s d2s_bench
/usr/bin/python3 "$D2S_ROOT/bench/run_bench.py" "$D2S_BUILD" "$@"
