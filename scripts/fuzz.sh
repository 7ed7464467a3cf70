#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang in build-fuzz/ and runs each for
# SECONDS (default 60) on its seed corpus and dictionary. Fails when any target finds a
# crash, a leak, a sanitizer report, an out-of-memory or a timeout; the offending input
# is left in build-fuzz/artifacts/<target>/ (turn it into a regression test under
# fuzz/regressions/ before fixing it).
#
#   scripts/fuzz.sh [SECONDS]     D2S_FUZZ_TARGETS="fuzz_parse fuzz_ir_yaml" to pick
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
jobs="${D2S_JOBS:-2}"
targets="${D2S_FUZZ_TARGETS:-fuzz_parse fuzz_inputs_yaml fuzz_ir_yaml fuzz_pipeline}"

cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DD2S_FUZZ=ON -DD2S_BUILD_TESTS=OFF >/dev/null
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

status=0
for t in $targets; do
  corpus="$build/corpus/$t"  # grows while fuzzing; the seeds stay untouched
  artifacts="$build/artifacts/$t/"
  mkdir -p "$corpus" "$artifacts"
  dict=()
  case "$t" in
    fuzz_parse | fuzz_pipeline) dict=(-dict="$root/fuzz/python.dict") ;;
    *) dict=(-dict="$root/fuzz/yaml.dict") ;;
  esac
  echo "== $t: ${seconds}s"
  if ! "$build/fuzz/$t" "$corpus" "$root/fuzz/corpus/$t" "${dict[@]}" \
    -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts" -print_final_stats=1 >"$build/$t.log" 2>&1; then
    echo "!! $t failed; see $build/$t.log and $artifacts" >&2
    tail -n 40 "$build/$t.log" >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units|^Done' "$build/$t.log" || true
  fi
done
exit "$status"
