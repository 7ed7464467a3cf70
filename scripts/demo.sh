#!/usr/bin/env bash
# Sets up (Debian packages), builds (Release) and runs every bundled sample through
# d2s, writing the results under out/ and printing a short summary.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
d2s_install_packages
d2s_build >/dev/null

d2s="$D2S_BUILD/cli/d2s"
out="$D2S_ROOT/out"
rm -rf "$out"
mkdir -p "$out/errors"
cd "$D2S_ROOT"

ok=0
failed=0
step() {  # step LABEL OUTFILE -- command...: runs one d2s command, records it
  local label="$1" file="$2"
  shift 3
  if "$@" >"$file" 2>"$file.err"; then
    ok=$((ok + 1))
    rm -f "$file.err"
  else
    failed=$((failed + 1))
    echo "  FAILED  $label (see ${file#"$D2S_ROOT"/}.err)"
  fi
}

printf 'd2s demo: every sample in samples/, results in out/\n\n'
for model in samples/*.py; do
  name="$(basename "$model" .py)"
  inputs="samples/$name.inputs.yaml"
  [ -f "$inputs" ] || continue
  step "$name: run (eager)" "$out/$name.eager.yaml" -- "$d2s" run "$model" --inputs "$inputs"
  printf '  %-22s eager outputs -> out/%s.eager.yaml\n' "$name" "$name"
done

echo
echo "Programs that d2s rejects, with the message it gives (samples/errors/):"
for model in samples/errors/*.py; do
  name="$(basename "$model" .py)"
  inputs="samples/errors/$name.inputs.yaml"
  args=()
  [ -f "$inputs" ] && args=(--inputs "$inputs")
  set +e
  "$d2s" run "$model" "${args[@]}" >/dev/null 2>"$out/errors/$name.txt"
  code=$?
  set -e
  if [ "$code" -eq 2 ]; then
    ok=$((ok + 1))
  else
    failed=$((failed + 1))
  fi
  printf '\n  %s (exit %d):\n' "$model" "$code"
  sed 's/^/    /' "$out/errors/$name.txt"
done

echo
echo "demo: $ok steps ok, $failed failed"
[ "$failed" -eq 0 ]
