#!/usr/bin/env bash
# Passes, the planner, the verifier, the effects and the shape rules test a node's kind
# by its interned identity (ir::Node::prim(), sym(), op(): core/ir/symbols.h), never by
# comparing op names as strings per node (the ctest `op_names`). A line that does
# fails here with its file and line; the allow-list below holds the justified ones.
# Files: the executor (core/exec/), the verifier and effects (core/ir/), the passes and
# the shape rules (convert/pass_*.cpp, shape_rules*.cpp, found by name).
#
#   tests/op_names_check.sh SOURCE_DIR
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
mapfile -t files < <(find core convert \( -name 'pass_*.cpp' -o -path 'core/exec/*.cpp' \
  -o -path 'core/ir/verify.cpp' -o -path 'core/ir/effects.cpp' -o -name 'shape_rules*.cpp' \) \
  -not -path '*/tests/*' | sort)
if ((${#files[@]} < 10)); then
  echo "op_names: found only ${#files[@]} files to check; were they renamed?" >&2
  exit 1
fi
# String compares of kinds: kind() ==/!= anything (a KindName compare is a string
# compare too), a name literal compared or listed, a prefix test, and registry
# look-ups by the node's kind string (the node holds its OpDef already).
patterns=(
  'kind\(\) *(==|!=)'
  '(==|!=) *"(aten|prim)::'
  '"(aten|prim)::[A-Za-z0-9_]*" *(==|!=)'
  '(rfind|starts_with|compare)\("(aten|prim)::'
  '[{,] *"(aten|prim)::[A-Za-z0-9_]*" *[,}]'
  '(==|!=) *(ir::)?kind::[A-Z]'
  '(overloads|find|find_qualified|bind|call)\([a-z_.>-]*kind\(\)'
  # The shape rules' old spelling: the name without "aten::" in `k`.
  '\bk *(==|!=) *"'
  'in\(k, *\{'
)
# The shape rules' table registers each rule for its kinds, once, by name: lines of
# `t.add({"aten::x", "aten::y", ...}, rule)` are the registration, not a per-node test.
registration='^[[:space:]]*(t\.add\()?\{?[[:space:]]*("aten::[A-Za-z0-9_]+",?[[:space:]]*)+(\}[,)].*)?$'
# Justified exceptions, as "file name: text on the line" (each with its reason).
allowed=(
  # The overload chosen at run time by the arguments' types (the node names none and
  # its kind has several): the registry's binder takes the kind's name.
  'pass_constant_fold.cpp: reg.bind(n.kind()'
  'pass_dce_raise.cpp: reg.bind(n.kind()'
)
status=0
for f in "${files[@]}"; do
  for p in "${patterns[@]}"; do
    while IFS= read -r hit; do
      [[ -z "$hit" ]] && continue
      line="${hit#*:}"
      [[ "$line" =~ ^[[:space:]]*// ]] && continue
      [[ "$(basename "$f")" == shape_rules*.cpp && "$line" =~ $registration ]] && continue
      ok=0
      for a in "${allowed[@]}"; do
        if [[ "$(basename "$f")" == "${a%%: *}" && "$line" == *"${a#*: }"* ]]; then ok=1; fi
      done
      ((ok)) && continue
      echo "$f:${hit%%:*}: op name compared as a string: ${line#"${line%%[![:space:]]*}"}" >&2
      status=1
    done < <(grep -nE "$p" "$f" || true)
  done
done
if ((status)); then
  echo "op_names: test a node's kind with n->prim() / n->sym() == ir::op::... / n->op()" >&2
  echo "  (core/ir/symbols.h); a new named op goes into D2S_NAMED_OPS there." >&2
  exit 1
fi
echo "op_names: ${#files[@]} files test kinds by interned identity"
