#!/usr/bin/env bash
# The CI steps after scripts/test.sh, in one clang build (scripts/clang_build.sh): the
# whole suite under ASan+UBSan (scripts/sanitize.sh), then every fuzz target for
# SECONDS each, two at a time (scripts/fuzz.sh, default 60). Fails at the first step
# that fails. Timings: docs/ci.md.
#
#   scripts/ci-extra.sh [FUZZ_SECONDS]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
start=$SECONDS
"$here/sanitize.sh"
echo "ci-extra: sanitizer suite done after $((SECONDS - start))s"
D2S_FUZZ_PARALLEL="${D2S_FUZZ_PARALLEL:-2}" "$here/fuzz.sh" "${1:-60}"
echo "ci-extra: done after $((SECONDS - start))s"
