#!/usr/bin/env bash
# Builds d2s with AddressSanitizer and UndefinedBehaviorSanitizer (the clang build of
# scripts/clang_build.sh, build-fuzz/, which also holds the fuzz targets) and runs the
# ctest suite there (all but the parity tests, below); any sanitizer report fails the test it is in.
#
# A test that cannot work under ASan at all gets the ctest label `no_asan` where it is
# defined, with the reason beside it; none has it today. The live PyTorch parity suite
# (label `parity`) is left to the Release run of scripts/test.sh: it checks numbers
# against PyTorch, and every sample in every route already runs under ASan in the
# in-process suites (Routes.*, LowerSamples.*, DiffSamples.*), so repeating it here
# would only add minutes to CI.
#
#   scripts/sanitize.sh [CTEST ARGS...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/clang_build.sh"
jobs="${D2S_JOBS:-$(nproc)}"
d2s_install_packages
d2s_clang_configure
cmake --build "$D2S_CLANG_BUILD" -j "$jobs"
# halt_on_error/abort: a report is a failure of the test that caused it, never a warning.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Leaks inside Graphviz's font stack are not d2s's (the file says why).
export LSAN_OPTIONS="suppressions=$D2S_ROOT/scripts/lsan.supp:print_suppressions=0"
cd "$D2S_CLANG_BUILD"
ctest -j "$jobs" --output-on-failure --label-exclude "no_asan|parity" "$@"
