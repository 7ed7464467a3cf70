#!/usr/bin/env bash
# Every C++ file of the project is formatted as .clang-format says (the ctest `format`):
# a change that skipped clang-format fails here, in CI, and names the files to fix.
# One clang-format process checks all files (one per file took 40 s).
#
#   tests/format_check.sh SOURCE_DIR
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
mapfile -t files < <(find core parse trace convert viz cli fuzz bench tests \
  \( -name '*.cpp' -o -name '*.h' \) -not -path '*/corpus/*' | sort)
if ! report="$(clang-format --dry-run -Werror "${files[@]}" 2>&1)"; then
  mapfile -t bad < <(grep -oE '^[^:]+\.(cpp|h):[0-9]+:[0-9]+: error' <<<"$report" |
    cut -d: -f1 | sort -u)
  echo "format: ${#bad[@]} of ${#files[@]} files differ from .clang-format; fix with:" >&2
  echo "  clang-format -i ${bad[*]}" >&2
  exit 1
fi
echo "format: ${#files[@]} files follow .clang-format"
