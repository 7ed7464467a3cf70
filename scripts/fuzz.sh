#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) in the clang build of scripts/clang_build.sh
# (build-fuzz/) and runs each for SECONDS (default 60) on its seed corpus and
# dictionary, PARALLEL at a time (D2S_FUZZ_PARALLEL, default 1; CI runs 2, one per
# core). Fails when any target finds a crash, a leak, a sanitizer report, an
# out-of-memory or a timeout; the offending input is left in
# build-fuzz/artifacts/<target>/ (turn it into a regression under fuzz/regressions/,
# replayed by a test, before fixing it).
#
#   scripts/fuzz.sh [SECONDS]     D2S_FUZZ_TARGETS="fuzz_parse fuzz_ir_yaml" to pick
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/clang_build.sh"
seconds="${1:-60}"
build="$D2S_CLANG_BUILD"
jobs="${D2S_JOBS:-$(nproc)}"
parallel="${D2S_FUZZ_PARALLEL:-1}"
targets="${D2S_FUZZ_TARGETS:-fuzz_parse fuzz_inputs_yaml fuzz_ir_yaml fuzz_pipeline fuzz_onnx_import}"

d2s_install_packages
d2s_clang_configure
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" --target $targets

# Longest input per target: programs and YAML files of a few kilobytes reach every
# construct; longer ones only slow the search down.
max_len() {
  case "$1" in
    fuzz_pipeline) echo 1024 ;;
    *) echo 4096 ;;
  esac
}

# Runs one target; its log is build-fuzz/<target>.log.
fuzz_one() {
  local t="$1" corpus="$build/corpus/$1" artifacts="$build/artifacts/$1/" dict
  mkdir -p "$corpus" "$artifacts"  # the corpus grows while fuzzing; the seeds stay untouched
  case "$t" in
    fuzz_parse | fuzz_pipeline) dict="$D2S_ROOT/fuzz/python.dict" ;;
    fuzz_onnx_import) dict="$D2S_ROOT/fuzz/onnx.dict" ;;
    *) dict="$D2S_ROOT/fuzz/yaml.dict" ;;
  esac
  "$build/fuzz/$t" "$corpus" "$D2S_ROOT/fuzz/corpus/$t" -dict="$dict" \
    -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts" -print_final_stats=1 >"$build/$t.log" 2>&1
}

status=0
read -ra queue <<<"$targets"
set -- "${queue[@]}"
while [ $# -gt 0 ]; do
  batch=()
  pids=()
  while [ $# -gt 0 ] && [ "${#batch[@]}" -lt "$parallel" ]; do
    echo "== $1: ${seconds}s"
    fuzz_one "$1" &
    batch+=("$1")
    pids+=($!)
    shift
  done
  for i in "${!batch[@]}"; do
    t="${batch[$i]}"
    if ! wait "${pids[$i]}"; then
      echo "!! $t failed; see $build/$t.log and $build/artifacts/$t/" >&2
      tail -n 40 "$build/$t.log" >&2
      status=1
    else
      echo "$t: $(grep -E '^stat::number_of_executed_units' "$build/$t.log" || echo '?')"
    fi
  done
done
exit "$status"
