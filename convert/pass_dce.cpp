// Dead-code elimination: see passes.h for what is kept and why.
#include <cstdint>
#include <unordered_set>

#include "convert/passes.h"
#include "core/base/pointer_table.h"
#include "core/ir/effects.h"

namespace d2s::convert {

namespace {

// An If output nobody reads: dropped from the If and from both arms' returns.
bool drop_if_outputs(ir::Node* n) {
  bool changed = false;
  for (size_t i = n->outputs().size(); i-- > 0;) {
    if (n->output(i)->has_uses()) continue;
    for (ir::Block* b : n->blocks()) b->return_node()->remove_input(i);
    n->erase_output(i);
    changed = true;
  }
  return changed;
}

// Whether what flows from `param` (carried slot `slot` of `loop`) reaches anything but
// its own slot of the body's return: another slot, the condition, a side effect, the
// control of an If or a nested loop. Follows values forward through pure nodes and
// block returns, with a worklist.
bool carried_escapes(ir::Node* loop, ir::Value* param, size_t slot) {
  ir::Block* body = loop->blocks().at(0);
  std::vector<ir::Value*> work{param};
  std::unordered_set<ir::Value*> seen{param};
  auto push = [&](ir::Value* v) {
    if (seen.insert(v).second) work.push_back(v);
  };
  while (!work.empty()) {
    ir::Value* v = work.back();
    work.pop_back();
    for (const ir::Use& u : v->uses()) {
      ir::Node* user = u.user;
      if (user == body->return_node()) {
        if (u.offset != slot) return true;
        continue;
      }
      if (user->prim() == ir::Prim::Return) {
        // A nested block's result: an If output, or a nested loop's carried value.
        ir::Node* owner = user->owning_block()->owning_node();
        if (owner->prim() == ir::Prim::If) {
          push(owner->output(u.offset));
        } else if (owner->prim() == ir::Prim::Loop && u.offset > 0) {
          push(owner->output(u.offset - 1));
          push(owner->blocks()[0]->inputs()[u.offset]);
        } else {
          return true;
        }
        continue;
      }
      if (has_side_effects(*user)) return true;
      if (user->prim() == ir::Prim::If) return true;  // decides which arm runs
      if (user->prim() == ir::Prim::Loop) {
        if (u.offset < 2) return true;  // trip count or condition
        push(user->output(u.offset - 2));
        push(user->blocks()[0]->inputs()[u.offset - 1]);
        continue;
      }
      for (ir::Value* out : user->outputs()) push(out);
    }
  }
  return false;
}

// A carried value nobody reads after the loop: if the body reads it only to compute
// its next value, it is dropped (first the body passes it on unchanged, so that what
// computed it dies; then the slot goes from the inputs, the body and the outputs).
bool drop_loop_carried(ir::Node* n) {
  bool changed = false;
  ir::Block* body = n->blocks().at(0);
  for (size_t i = n->outputs().size(); i-- > 0;) {
    if (n->output(i)->has_uses()) continue;
    ir::Value* param = body->inputs().at(i + 1);
    bool only_passed_on = true;
    for (const ir::Use& u : param->uses()) {
      if (u.user != body->return_node() || u.offset != i + 1) only_passed_on = false;
    }
    if (!only_passed_on) {
      if (body->outputs()[i + 1] != param && !carried_escapes(n, param, i + 1)) {
        body->return_node()->replace_input(i + 1, param);
        changed = true;
      }
      continue;
    }
    body->return_node()->remove_input(i + 1);
    body->param_node()->erase_output(i + 1);
    n->remove_input(i + 2);
    n->erase_output(i);
    changed = true;
  }
  return changed;
}

// A node's own effect, without looking into its blocks: prints, raises, guards,
// backward() and the ops the table marks as writing into an argument or drawing random
// numbers (ir::has_own_effects), and — asked only with `check_raise`, since it runs the
// kernel on stand-ins: the sweep asks it of unused and nested nodes only — a registry
// op that may raise (an error is an effect eager mode shows).
bool own_side_effects(const ir::Node& n, bool check_raise = true) {
  if (ir::has_own_effects(n)) return true;
  if (!check_raise || n.sym().is_prim_namespace()) return false;
  return !cannot_raise(n);
}

// Whether a registry op may raise, remembered across the sweeps of one elimination:
// sweeping only removes nodes and loop slots, so a surviving op keeps its inputs and
// their producers, and the answer (which may run the kernel on stand-ins) holds.
// Entries: 0 not asked yet, 1 may raise, 2 cannot.
using RaiseCache = PointerTable<uint8_t>;

bool sweep_side_effects(const ir::Node& n, bool check_raise, RaiseCache& may_raise) {
  if (ir::has_own_effects(n)) return true;
  if (!check_raise || n.sym().is_prim_namespace()) return false;
  uint8_t& known = *may_raise.insert(&n).first;
  if (known == 0) known = cannot_raise(n) ? 2 : 1;
  return known == 1;
}

bool sweep(ir::Graph& graph, RaiseCache& may_raise) {
  bool changed = false;
  // Last node first within each block, a node after its blocks: a chain of dead nodes
  // goes in one sweep, and an If or Loop is judged after its arms were cleaned. Whether
  // a subtree has effects is accumulated bottom-up, so the sweep is linear.
  PointerTable<char> effectful;  // flat (core/base/pointer_table.h): no allocation per node
  for (ir::Node* n : post_order(graph.block(), /*reverse=*/true)) {
    if (n->prim() == ir::Prim::If) changed |= drop_if_outputs(n);
    if (n->prim() == ir::Prim::Loop) changed |= drop_loop_carried(n);
    bool used = false;
    for (const ir::Value* v : n->outputs()) used |= v->has_uses();
    // A node in an If arm or a loop body may be read only by its block's return: the
    // If or Loop goes when nothing reads that, so whether the node raises decides.
    const bool nested = n->owning_block() != graph.block();
    bool effects = sweep_side_effects(*n, /*check_raise=*/!used || nested, may_raise);
    for (const ir::Block* b : n->blocks()) {
      for (const ir::Node* inner : b->nodes()) effects |= effectful.find(inner) != nullptr;
    }
    if (!used && !effects) {
      n->destroy();
      changed = true;
    } else if (effects) {
      effectful.insert(n);
    }
  }
  return changed;
}

}  // namespace

bool has_side_effects(const ir::Node& n) {
  std::vector<const ir::Node*> stack{&n};
  while (!stack.empty()) {
    const ir::Node* cur = stack.back();
    stack.pop_back();
    if (own_side_effects(*cur)) return true;
    for (const ir::Block* b : cur->blocks()) {
      for (const ir::Node* inner : b->nodes()) stack.push_back(inner);
    }
  }
  return false;
}

bool eliminate_dead_code(ir::Graph& graph) {
  bool changed = false;
  // Dropping a carried value can free what computed it in the body: repeat.
  RaiseCache may_raise;
  while (sweep(graph, may_raise)) changed = true;
  return changed;
}

}  // namespace d2s::convert
