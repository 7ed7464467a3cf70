#!/usr/bin/env bash
# Builds d2s with AddressSanitizer and UndefinedBehaviorSanitizer (Debug) in build-asan/
# and runs the whole ctest suite there; any sanitizer report fails the test it is in.
#
# A test that cannot work under ASan at all gets the ctest label `no_asan` where it is
# defined, with the reason beside it; none has it today. The parity suite runs too: its
# python3 (with torch) is not instrumented, but the d2s it starts is.
#
#   scripts/sanitize.sh [CTEST ARGS...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
build="$D2S_ROOT/build-asan"
jobs="${D2S_JOBS:-2}"
d2s_install_packages
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$D2S_ROOT" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug \
    -DD2S_SANITIZE=ON >/dev/null
fi
cmake --build "$build" -j "$jobs"
# halt_on_error/abort: a report is a failure of the test that caused it, never a warning.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cd "$build"
ctest -j "$jobs" --output-on-failure --label-exclude no_asan "$@"
