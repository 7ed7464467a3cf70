// Effects of nodes: see ir_effects.h.
#include "core/ir/effects.h"

#include "core/ops/op_registry.h"

namespace d2s::ir {

namespace {

// Whether an overload could be the one a node without a recorded overload calls, by its
// first argument: a tensor op (torch.sort) is not the list op of the same name
// (list.sort, which writes into its list), nor a dict op.
bool first_argument_fits(const OpDef& def, const Node& n) {
  if (n.inputs().empty() || def.schema.arguments.empty()) return true;
  const Type& t = n.input(0)->type();
  if (t.kind == TypeKind::Any || t.kind == TypeKind::Optional) return true;
  std::string s = def.schema.arguments[0].type;
  if (!s.empty() && s.back() == '?') s.pop_back();
  if (s.size() > 2 && s.compare(s.size() - 2, 2, "[]") == 0) {
    return t.kind == TypeKind::List || t.kind == TypeKind::Tuple;
  }
  if (s == "Tensor") return t.is_tensor();
  if (s == "Dict") return t.kind == TypeKind::Dict;
  return true;
}

// Calls pred on the node's OpDef (its recorded overload), or on every overload of its
// kind that fits its first input when none is recorded; true when pred holds for one.
// False for unknown kinds.
template <typename Pred>
bool any_overload(const Node& n, Pred pred) {
  // The overloads and the named one were resolved when the node was made.
  if (!n.overloads()) return false;
  if (!n.overload().empty() && n.op()) return pred(*n.op());
  for (const OpDef& def : *n.overloads()) {
    if (first_argument_fits(def, n) && pred(def)) return true;
  }
  return false;
}

}  // namespace

bool mutates_inputs(const Node& n) {
  return any_overload(n, [](const OpDef& def) { return def.mutates; });
}

bool has_own_effects(const Node& n) {
  // The IR's prims: their entry in the prim list (an If's or Loop's effects are
  // those of its blocks).
  if (n.prim() != Prim::None) return prim_info(n.prim()).effect != PrimEffect::Pure;
  if (n.sym() == op::backward) return true;  // accumulates into the leaves' .grad
  if (!n.overloads()) return true;           // unknown: kept
  return any_overload(n, [](const OpDef& def) { return def.mutates || def.is_random(); });
}

bool is_unchanged_list(const Value& v) {
  if (v.node()->prim() != Prim::ListConstruct) return false;
  for (const Use& u : v.uses()) {
    if (mutates_inputs(*u.user)) return false;
  }
  return true;
}

bool removable_when_unused(const Node& n) {
  for (const Value* out : n.outputs()) {
    if (out->has_uses()) return false;
  }
  return !has_own_effects(n);
}

}  // namespace d2s::ir
