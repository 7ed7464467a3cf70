// Shape inference: dtypes and shapes through the graph (see passes.h).
//
// Symbolic dims: a tensor input of the entry whose example shape is known gets one
// symbol per dim, named `<input>_<axis>` (x_0, x_1): the printed type says where a
// size comes from, and a batch dimension stays a symbol however the graph is run.
// Module parameters have known sizes. Through an If the arms are joined (equal
// dims stay, different ones become `*`); a loop's carried types are iterated to a
// fixpoint (widened to unknown shapes if that takes too long).
#include "convert/lowerer.h"
#include "convert/passes.h"
#include "convert/shape_rules.h"

namespace d2s::convert {

using ir::Type;

namespace {

constexpr int kMaxLoopRounds = 8;

bool set_type(ir::Value* v, const Type& t) {
  if (v->type() == t) return false;
  v->set_type(t);
  return true;
}

// Tensor types without their shapes (the loop widening).
Type widen(const Type& t) {
  Type out = t;
  if (out.is_tensor()) out.shape.reset();
  for (Type& e : out.elements) e = widen(e);
  return out;
}

Type join_or_any(const Type& a, const Type& b) {
  if (auto j = join_types(a, b)) return *j;
  if (auto o = join_optional(a, b)) return *o;
  return Type::any();
}

bool infer_region(ir::Block* b);

void join_if_outputs(ir::Node* n, bool* changed) {
  ir::IfView view(n);
  for (size_t i = 0; i < n->outputs().size(); ++i) {
    const ir::Value* a = view.then_block()->outputs()[i];
    const ir::Value* b = view.else_block()->outputs()[i];
    // A placeholder (the arm exits) does not constrain the result.
    Type t = a->node()->prim() == ir::Prim::Uninitialized   ? b->type()
             : b->node()->prim() == ir::Prim::Uninitialized ? a->type()
                                                            : join_or_any(a->type(), b->type());
    *changed |= set_type(n->output(i), t);
  }
}

bool infer_loop(ir::Node* n) {
  ir::LoopView view(n);
  ir::Block* body = view.body();
  std::vector<ir::Value*> init = view.carried_inputs();
  // Starting from what the body parameters already hold (joined with the initial
  // values) makes a second run find the fixpoint at once.
  std::vector<Type> current;
  for (size_t i = 0; i < init.size(); ++i) {
    current.push_back(join_or_any(init[i]->type(), body->inputs()[i + 1]->type()));
  }
  bool changed = false;
  for (int round = 0;; ++round) {
    for (size_t i = 0; i < current.size(); ++i)
      changed |= set_type(body->inputs()[i + 1], current[i]);
    changed |= infer_region(body);
    bool stable = true;
    for (size_t i = 0; i < current.size(); ++i) {
      const ir::Value* out = body->outputs()[i + 1];
      Type next = out->node()->prim() == ir::Prim::Uninitialized
                      ? current[i]
                      : join_or_any(current[i], out->type());
      if (round >= kMaxLoopRounds) next = widen(next);
      if (!(next == current[i])) {
        current[i] = next;
        stable = false;
      }
    }
    if (stable || round > kMaxLoopRounds + 1) break;
  }
  for (size_t i = 0; i < current.size(); ++i) changed |= set_type(n->output(i), current[i]);
  return changed;
}

// The nodes of `b` in order, If arms included, with an explicit stack (If nesting can
// be as deep as the program is long); loop bodies recurse, once per loop level.
bool infer_region(ir::Block* b) {
  bool changed = false;
  struct Item {
    ir::Node* cursor;   // next node of a block (or, for a join, null)
    ir::Node* end;      // that block's return node
    ir::Node* join_if;  // an If whose arms are done: join its outputs
  };
  std::vector<Item> stack{{b->param_node()->next(), b->return_node(), nullptr}};
  while (!stack.empty()) {
    Item& top = stack.back();
    if (top.join_if) {
      ir::Node* n = top.join_if;
      stack.pop_back();
      join_if_outputs(n, &changed);
      continue;
    }
    if (top.cursor == top.end) {
      stack.pop_back();
      continue;
    }
    ir::Node* n = top.cursor;
    top.cursor = n->next();
    if (n->prim() == ir::Prim::If) {
      ir::IfView view(n);
      stack.push_back({nullptr, nullptr, n});
      ir::Block* e = view.else_block();
      ir::Block* t = view.then_block();
      stack.push_back({e->param_node()->next(), e->return_node(), nullptr});
      stack.push_back({t->param_node()->next(), t->return_node(), nullptr});
    } else if (n->prim() == ir::Prim::Loop) {
      changed |= infer_loop(n);
    } else {
      changed |= infer_node_types(*n);
    }
  }
  return changed;
}

}  // namespace

bool infer_shapes(ir::Graph& graph) {
  return infer_region(graph.block());
}

}  // namespace d2s::convert
