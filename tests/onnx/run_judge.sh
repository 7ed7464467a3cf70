#!/usr/bin/env bash
# ctest onnx_judge: installs onnxruntime-node into ORT_DIR (a folder of the build) once,
# with its install script off (it only fetches GPU extras; the package ships the Linux
# x64 CPU library), then runs onnx_judge.py.
#   run_judge.sh D2S ORT_DIR PYTHON [--table OUT.md]
set -euo pipefail
d2s="$1" ort_dir="$2" python="$3"
shift 3
if [ ! -f "$ort_dir/node_modules/onnxruntime-node/package.json" ]; then
  mkdir -p "$ort_dir"
  npm install --prefix "$ort_dir" --ignore-scripts --no-audit --no-fund --loglevel=error \
    onnxruntime-node@1.30.0
fi
exec "$python" "$(dirname "$0")/onnx_judge.py" "$d2s" "$ort_dir" "$@"
