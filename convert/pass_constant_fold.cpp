// Constant folding: see passes.h.
#include <unordered_set>

#include "convert/lower_context.h"
#include "convert/pass_manager.h"
#include "convert/passes.h"
#include "core/base/error.h"
#include "core/ops/op_registry.h"

namespace d2s::convert {

namespace {

// The node's overload when it names one (resolved when the node was made); otherwise
// the registry's binding decides.
const OpDef* op_of(const ir::Node& n) {
  return n.overload().empty() ? nullptr : n.op();
}

bool is_tensor_free(const IValue& v) {
  if (v.is_tensor() || v.is_object()) return false;
  if (v.is_tuple() || v.is_list()) {
    for (const IValue& item : v.items()) {
      if (!is_tensor_free(item)) return false;
    }
  }
  return true;
}

// Replaces every use of `v` by a new constant `value` placed before `before`.
void replace_with_constant(ir::Graph& g, ir::Value* v, const IValue& value, ir::Node* before,
                           const SourceRange& range) {
  ir::WithInsertPoint guard(g, before);
  ir::Value* c = g.insert_constant(value, range);
  if (!v->debug_name().empty()) c->set_debug_name(v->debug_name());
  v->replace_all_uses_with(c);
  count_folded();
}

// prim::If on a constant: the taken arm's nodes move before the If, its results
// replace the If's.
bool fold_if(ir::Graph& g, ir::Node* n) {
  ir::IfView view(n);
  if (auto c = constant_bool(view.cond())) {
    ir::Block* taken = *c ? view.then_block() : view.else_block();
    for (ir::Node* inner : taken->nodes()) inner->move_before(n);
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      n->output(i)->replace_all_uses_with(taken->outputs()[i]);
    }
    n->destroy();
    count_folded();
    return true;
  }
  // Outputs both arms agree on: the same outer value, or equal constants.
  bool changed = false;
  for (size_t i = 0; i < n->outputs().size(); ++i) {
    ir::Value* out = n->output(i);
    if (!out->has_uses()) continue;
    ir::Value* a = view.then_block()->outputs()[i];
    ir::Value* b = view.else_block()->outputs()[i];
    if (a == b) {  // one value returned by both arms is defined outside the If
      out->replace_all_uses_with(a);
      changed = true;
      continue;
    }
    // Two outputs returning the same pair of values (e.g. the flags of a `return`
    // inside a loop, which sets $ret and $stop alike) are one output.
    bool merged = false;
    for (size_t j = 0; j < i && !merged; ++j) {
      if (view.then_block()->outputs()[j] == a && view.else_block()->outputs()[j] == b) {
        out->replace_all_uses_with(n->output(j));
        merged = changed = true;
      }
    }
    if (merged) continue;
    // `c ? True : False` is c itself; `c ? False : True` is `not c`.
    auto ba = constant_bool(a), bb = constant_bool(b);
    if (ba && bb && *ba != *bb) {
      ir::Value* cond = view.cond();
      if (!*ba) {
        ir::WithInsertPoint guard(g, n);
        ir::Node* neg = g.insert("aten::__not__", {cond}, 1, n->range());
        neg->output()->set_type(ir::Type::of_bool());
        cond = neg->output();
      }
      out->replace_all_uses_with(cond);
      changed = true;
      continue;
    }
    auto ca = constant_value(a), cb = constant_value(b);
    if (ca && cb && !ca->is_tensor() && !cb->is_tensor() && ca->type_name() == cb->type_name() &&
        ca->repr() == cb->repr()) {
      replace_with_constant(g, out, *ca, n, a->node()->range());
      changed = true;
    }
  }
  return changed;
}

// prim::Loop that never starts (constant false condition, or no trips): its outputs
// are its initial carried values.
bool fold_loop(ir::Node* n) {
  ir::LoopView view(n);
  auto cond = constant_bool(view.initial_cond());
  auto trips = constant_value(view.max_trip_count());
  bool never = (cond && !*cond) || (trips && trips->is_int() && trips->to_int() <= 0);
  if (!never) return false;
  std::vector<ir::Value*> init = view.carried_inputs();
  for (size_t i = 0; i < n->outputs().size(); ++i) n->output(i)->replace_all_uses_with(init[i]);
  n->destroy();
  return true;
}

// The values some op of the graph writes into (its `Tensor(a!)` arguments): a buffer
// constant that batch_norm or add_ updates holds another value when a later read runs.
std::unordered_set<const ir::Value*> written_values(const std::vector<ir::Node*>& nodes) {
  std::unordered_set<const ir::Value*> out;
  for (ir::Node* n : nodes) {
    const OpDef* def = n->blocks().empty() ? op_of(*n) : nullptr;
    if (!def || !def->mutates) continue;
    for (size_t i : def->schema.written_arguments()) {
      if (i < n->inputs().size()) out.insert(n->input(i));
    }
  }
  return out;
}

bool fold_op(ir::Graph& g, ir::Node* n, const std::unordered_set<const ir::Value*>& written) {
  std::vector<IValue> inputs;
  for (ir::Value* v : n->inputs()) {
    if (written.count(v)) return false;
    auto c = constant_value(v);
    if (!c) return false;
    inputs.push_back(*c);
  }
  auto outs = evaluate_node(*n, inputs);
  if (!outs) return false;
  for (size_t i = 0; i < n->outputs().size(); ++i) {
    replace_with_constant(g, n->output(i), (*outs)[i], n, n->range());
  }
  n->destroy();
  return true;
}

// Tuples taken apart where they were built: TupleUnpack / TupleIndex of a
// TupleConstruct read its inputs directly.
bool fold_tuple(ir::Node* n) {
  ir::Node* producer = n->input(0)->node();
  if (producer->prim() != ir::Prim::TupleConstruct) return false;
  if (n->prim() == ir::Prim::TupleUnpack) {
    if (producer->inputs().size() != n->outputs().size()) return false;
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      n->output(i)->replace_all_uses_with(producer->input(i));
    }
  } else {
    std::optional<IValue> idx = n->inputs().size() > 1 ? constant_value(n->input(1)) : std::nullopt;
    if (!idx && n->attr("index")) idx = *n->attr("index");
    if (!idx || !idx->is_int()) return false;
    int64_t size = static_cast<int64_t>(producer->inputs().size());
    int64_t i = idx->to_int() < 0 ? idx->to_int() + size : idx->to_int();
    if (i < 0 || i >= size) return false;
    n->output()->replace_all_uses_with(producer->input(static_cast<size_t>(i)));
  }
  n->destroy();
  return true;
}

bool fold_once(ir::Graph& g) {
  bool changed = false;
  // One walk of the graph serves both: the written values, then the folding.
  const std::vector<ir::Node*> nodes = post_order(g.block());
  const std::unordered_set<const ir::Value*> written = written_values(nodes);
  // Post-order: a node's blocks are folded before the node, and folding a node only
  // removes it and its own (already visited) blocks, so the list stays valid.
  for (ir::Node* n : nodes) {
    const ir::Prim p = n->prim();
    if (p == ir::Prim::If) {
      changed |= fold_if(g, n);
    } else if (p == ir::Prim::Loop) {
      changed |= fold_loop(n);
    } else if (p == ir::Prim::TupleUnpack || p == ir::Prim::TupleIndex) {
      changed |= fold_tuple(n);
    } else if (n->blocks().empty() && !n->outputs().empty() && p != ir::Prim::Constant) {
      changed |= fold_op(g, n, written);
    }
  }
  return changed;
}

}  // namespace

std::vector<ir::Node*> post_order(const ir::Block* block, bool reverse) {
  // An explicit stack with one frame per open block (so its depth is the nesting of
  // blocks, and there is no recursion): each frame walks its block's list from the
  // wanted end, and a node with blocks is emitted when the last of them is done.
  // Every pass starts with this walk, so it touches each node once and pushes nothing
  // for a node without blocks.
  struct Frame {
    const ir::Block* block;
    ir::Node* cur;      // the next node of `block` to visit
    ir::Node* owner;    // the node `block` belongs to (null for the walk's root)
    size_t block_rank;  // which of owner's blocks this is, in walking order
  };
  auto first = [&](const ir::Block* b) {
    return reverse ? b->return_node()->prev() : b->param_node()->next();
  };
  auto stop = [&](const ir::Block* b) { return reverse ? b->param_node() : b->return_node(); };
  auto step = [&](const ir::Node* n) { return reverse ? n->prev() : n->next(); };
  // The walking order of a node's blocks: first to last, or last to first reversed.
  auto nth_block = [&](const ir::Node* n, size_t rank) {
    const auto& blocks = n->blocks();
    return reverse ? blocks[blocks.size() - 1 - rank] : blocks[rank];
  };
  std::vector<ir::Node*> out;
  out.reserve(block->owning_graph()->live_nodes());  // an upper bound: one allocation
  std::vector<Frame> stack{Frame{block, first(block), nullptr, 0}};
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.cur != stop(f.block)) {
      ir::Node* n = f.cur;
      if (n->blocks().empty()) {
        out.push_back(n);
        f.cur = step(n);
      } else {
        const ir::Block* b = nth_block(n, 0);
        stack.push_back(Frame{b, first(b), n, 0});  // f is not used after this
      }
      continue;
    }
    ir::Node* owner = f.owner;
    const size_t next_rank = f.block_rank + 1;
    stack.pop_back();
    if (!owner) continue;
    if (next_rank < owner->blocks().size()) {
      const ir::Block* b = nth_block(owner, next_rank);
      stack.push_back(Frame{b, first(b), owner, next_rank});
    } else {
      out.push_back(owner);
      stack.back().cur = step(owner);
    }
  }
  return out;
}

std::optional<std::vector<IValue>> evaluate_node(const ir::Node& n,
                                                 const std::vector<IValue>& inputs) {
  const OpRegistry& reg = OpRegistry::builtin();
  if (!n.overloads()) return std::nullopt;  // prim:: structure, unknown ops
  IValue result;
  try {
    OpContext ctx;  // no generator: a random op could not run (and is excluded below)
    const OpDef* def = op_of(n);
    if (def) {
      // A random op draws; a writing op (add_, batch_norm's running statistics) would
      // change its constant argument at conversion time, and again when the graph runs.
      if (def->is_random() || def->mutates) return std::nullopt;
      // The node's inputs in schema order; trailing defaults are filled in, as the
      // executor does.
      ValueList args(inputs.begin(), inputs.end());
      const auto& params = def->schema.arguments;
      for (size_t i = args.size(); i < params.size(); ++i) {
        if (!params[i].default_value) return std::nullopt;
        args.push_back(*params[i].default_value);
      }
      result = def->kernel(ctx, args);
    } else {
      OpRegistry::Bound bound =
          reg.bind(n.kind(), ValueList(inputs.begin(), inputs.end()), {}, n.range());
      if (bound.op->is_random() || bound.op->mutates) return std::nullopt;
      result = bound.op->kernel(ctx, bound.args);
    }
  } catch (const Error&) {
    return std::nullopt;  // the error belongs to run time
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::vector<IValue> outs;
  if (n.outputs().size() == 1) {
    outs.push_back(result);
  } else if (result.is_tuple() && result.tuple_items().size() == n.outputs().size()) {
    outs = result.tuple_items();
  } else {
    return std::nullopt;
  }
  for (const IValue& v : outs) {
    if (!is_tensor_free(v)) return std::nullopt;
  }
  return outs;
}

bool constant_fold(ir::Graph& graph) {
  bool changed = false;
  // Folding one node can make another foldable (an If's inlined arm): repeat until
  // nothing changes. Each round removes at least one node, so this ends.
  while (fold_once(graph)) changed = true;
  return changed;
}

}  // namespace d2s::convert
