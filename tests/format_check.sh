#!/usr/bin/env bash
# Every C++ file of the project is formatted as .clang-format says (the ctest `format`):
# a change that skipped clang-format fails here, in CI, and names the files to fix.
#
#   tests/format_check.sh SOURCE_DIR
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
mapfile -t files < <(find core parse trace convert viz cli fuzz bench tests \
  -name '*.cpp' -o -name '*.h' | grep -v '/corpus/' | sort)
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -ne 0 ]; then
  echo "format: ${#bad[@]} of ${#files[@]} files differ from .clang-format; fix with:" >&2
  echo "  clang-format -i ${bad[*]}" >&2
  exit 1
fi
echo "format: ${#files[@]} files follow .clang-format"
