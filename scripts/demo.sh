#!/usr/bin/env bash
# Sets up (Debian packages), builds (Release) and runs every bundled sample through
# d2s by both routes, writing the results under out/ and printing a summary:
#
#   out/<name>.eager.yaml    d2s run (eager) on every input set (prints in <name>.eager.log)
#   out/<name>.parse.txt     d2s parse: the graph with its control flow (torch.jit.script-like)
#   out/<name>.trace.txt     d2s trace on the first input set (torch.jit.trace-like, guarded)
#   out/<name>.trace.yaml    the same trace as an IR file (d2s run accepts it)
#   out/<name>.parse-run.yaml, out/<name>.trace-run.yaml
#                            d2s run --mode parse / --mode trace on every input set
#                            (a trace stopped by a guard: its message in <name>.trace-run.err)
#   out/<name>.parse.svg, out/<name>.trace.svg
#                            pictures of both graphs (Graphviz, in process; docs/render.md)
#   out/<name>.diff.svg      d2s diff -o: the parsed graph, what the trace kept (green) and
#                            lost (red, dashed), beside the trace of the first set
#   out/<name>.report.html   d2s diff -o: the self-contained HTML report (open in a browser)
#
# A traced graph holds the path its input set took: on a set that takes another path
# (another branch, trip count, shape or scalar value) its guard fails with exit 1.
# That is the expected outcome, shown as such, not a failed step.
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
expected_guards=0
step() {  # step LABEL OUTFILE -- command...: runs one d2s command, records it
  local label="$1" file="$2"
  shift 3
  if "$@" >"$file" 2>"$file.err"; then
    ok=$((ok + 1))
    rm -f "$file.err"
    return 0
  fi
  failed=$((failed + 1))
  echo "  FAILED  $label (see ${file#"$D2S_ROOT"/}.err)"
  return 1
}

# The first line of a guard failure, shortened to what the guard saw:
# "set 1 guard failed: 'x < y' was True when traced, is False now". The full message
# stays in out/<name>.trace-run.err.
guard_summary() {
  sed -n 's/.*trace guard failed: \(.*\) (on input set \([0-9]*\))$/set \2 guard failed: \1/p;
           s/.*trace guard failed: \(.*\)$/guard failed: \1/p' "$1" | head -n 1
}

printf 'd2s demo: every sample in samples/ and samples/real/ by both routes, results in out/\n\n'
for model in samples/*.py samples/real/*.py; do
  name="$(basename "$model" .py)"
  inputs="$(dirname "$model")/$name.inputs.yaml"
  [ -f "$inputs" ] || continue
  line="$(printf '%-16s' "$name")"

  # What a program prints goes to out/<name>.<mode>.log (removed when empty).
  if step "$name: run (eager)" "$out/$name.eager.log" -- \
    "$d2s" run "$model" --inputs "$inputs" -o "$out/$name.eager.yaml"; then
    line+="  eager ok"
  else
    line+="  eager FAILED"
  fi
  [ -s "$out/$name.eager.log" ] || rm -f "$out/$name.eager.log"
  step "$name: parse" "$out/$name.parse.txt" -- "$d2s" parse "$model" --inputs "$inputs" || true
  step "$name: trace" "$out/$name.trace.txt" -- "$d2s" trace "$model" --inputs "$inputs" || true
  step "$name: trace -o .yaml" "$out/$name.trace.log" -- \
    "$d2s" trace "$model" --inputs "$inputs" -o "$out/$name.trace.yaml" || true
  rm -f "$out/$name.trace.log"

  if step "$name: run --mode parse" "$out/$name.parse-run.log" -- \
    "$d2s" run "$model" --inputs "$inputs" --mode parse -o "$out/$name.parse-run.yaml"; then
    line+="  parse ok"
  else
    line+="  parse FAILED"
  fi
  [ -s "$out/$name.parse-run.log" ] || rm -f "$out/$name.parse-run.log"

  # Pictures: both graphs, the diff, and the HTML report.
  pictures=ok
  step "$name: parse -o .svg" "$out/$name.parse.svg.log" -- \
    "$d2s" parse "$model" --inputs "$inputs" -o "$out/$name.parse.svg" || pictures=FAILED
  step "$name: trace -o .svg" "$out/$name.trace.svg.log" -- \
    "$d2s" trace "$model" --inputs "$inputs" -o "$out/$name.trace.svg" || pictures=FAILED
  step "$name: diff -o .svg" "$out/$name.diff.svg.log" -- \
    "$d2s" diff "$model" --inputs "$inputs" --max-search-tries 0 -o "$out/$name.diff.svg" \
    || pictures=FAILED  # (the picture shows no counterexamples: no search)
  step "$name: diff -o .html" "$out/$name.report.html.log" -- \
    "$d2s" diff "$model" --inputs "$inputs" -o "$out/$name.report.html" || pictures=FAILED
  rm -f "$out/$name".*.svg.log "$out/$name.report.html.log"
  line+="  pictures $pictures"

  # Traced on the first set, executed on every set.
  set +e
  "$d2s" run "$model" --inputs "$inputs" --mode trace -o "$out/$name.trace-run.yaml" \
    >/dev/null 2>"$out/$name.trace-run.err"
  code=$?
  set -e
  if [ "$code" -eq 0 ]; then
    ok=$((ok + 1))
    rm -f "$out/$name.trace-run.err"
    line+="  trace ok"
  elif [ "$code" -eq 1 ] && grep -q "trace guard failed" "$out/$name.trace-run.err"; then
    ok=$((ok + 1))
    expected_guards=$((expected_guards + 1))
    line+="  trace: $(guard_summary "$out/$name.trace-run.err") (as expected)"
  else
    failed=$((failed + 1))
    line+="  trace FAILED (exit $code, see out/$name.trace-run.err)"
  fi
  echo "  $line"
done

echo
echo "Training scripts (samples/training/), eager and @torch.compile halves side by side:"
for model in samples/training/*.py; do
  name="$(basename "$model" .py)"
  echo "  $name:"
  # Run in out/: a torch.onnx.export call writes its file in the current directory.
  if (cd "$out" && "$d2s" run "$D2S_ROOT/$model" --entry '<module>' --explain \
    -o "$out/$name.train.yaml") >"$out/$name.train.log" 2>"$out/$name.train.err"; then
    ok=$((ok + 1))
    # The pattern card's forward prints each input shape; the loss table is what matters.
    grep -v '^Input shape' "$out/$name.train.log" | sed 's/^/    /'
    sed 's/^/    /' "$out/$name.train.err"
  else
    failed=$((failed + 1))
    echo "    FAILED (see out/$name.train.err)"
  fi
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
echo "demo: $ok steps ok ($expected_guards traced graphs stopped by a guard on another path," \
  "as they should), $failed failed"
[ "$failed" -eq 0 ]
