#!/usr/bin/env bash
# The CI steps after scripts/test.sh: the whole suite under ASan+UBSan
# (scripts/sanitize.sh), then every fuzz target for SECONDS each (scripts/fuzz.sh,
# default 60). Fails at the first step that fails.
#
#   scripts/ci-extra.sh [FUZZ_SECONDS]
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
start=$SECONDS
"$here/sanitize.sh"
echo "ci-extra: sanitizer suite done after $((SECONDS - start))s"
"$here/fuzz.sh" "${1:-60}"
echo "ci-extra: done after $((SECONDS - start))s"
