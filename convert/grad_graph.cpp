// The static backward graph: reverse-mode differentiation of the IR, per block.
#include "convert/grad_graph.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "convert/functional_views.h"
#include "core/base/error.h"
#include "core/ir/effects.h"
#include "core/ir/verify.h"
#include "core/ops/op_registry.h"

namespace d2s::convert {

namespace {

using ir::Block;
using ir::Graph;
using ir::Node;
using ir::Type;
using ir::Value;
namespace kind = ir::kind;

bool maybe_float_tensor(const Value* v) {
  const Type& t = v->type();
  if (t.kind == ir::TypeKind::Any) return true;
  return t.is_tensor() && (!t.dtype || *t.dtype == DType::Float32);
}

bool differentiable(const std::string& aten_kind) {
  return !OpRegistry::builtin().overloads("grad::" + aten_kind.substr(6)).empty();
}

// Nodes that ran under torch.no_grad() (ir::kAttrGradEnabled false) and have no blocks:
// PyTorch records nothing for them.
bool grad_off(const Node& n) {
  const IValue* mode = n.attr(ir::kAttrGradEnabled);
  return mode && mode->is_bool() && !mode->to_bool() && n.blocks().empty();
}

// The functional forms of writes made under no_grad, each with the tensor whose history
// the write kept: PyTorch records no node for such a write, so later uses of the written
// tensor differentiate into that history — the whole gradient of the new value goes to
// the old one.
using GradIdentity = std::unordered_map<const Node*, const Value*>;

// Which values depend on a float tensor input of the graph (they may need a
// gradient). A forward walk; nested blocks are visited with an explicit stack.
std::unordered_set<const Value*> values_needing_grad(const Graph& g, const GradIdentity& identity) {
  std::unordered_set<const Value*> need;
  for (const Value* in : g.inputs()) {
    if (maybe_float_tensor(in)) need.insert(in);
  }
  // Nodes in program order; a node's blocks are walked before the node's outputs are
  // decided, so an If's outputs see what its arms computed.
  struct Frame {
    const Block* block;
    Node* cur;
  };
  std::vector<Frame> stack = {{g.block(), g.block()->param_node()->next()}};
  std::vector<Node*> owners;
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.cur == f.block->return_node()) {
      const Block* done = f.block;
      stack.pop_back();
      if (Node* owner = done->owning_node()) {
        // After the last block of a node: its outputs.
        if (done == owner->blocks().back()) {
          for (size_t i = 0; i < owner->outputs().size(); ++i) {
            for (const Block* b : owner->blocks()) {
              const size_t k = owner->kind() == kind::Loop ? i + 1 : i;
              if (k < b->outputs().size() && need.count(b->outputs()[k])) {
                need.insert(owner->output(i));
              }
            }
            if (owner->kind() == kind::Loop && need.count(owner->input(i + 2))) {
              need.insert(owner->output(i));
            }
          }
        }
      }
      continue;
    }
    Node* n = f.cur;
    f.cur = n->next();
    if (n->kind() == kind::Loop) {
      for (size_t i = 2; i < n->inputs().size(); ++i) {
        if (need.count(n->input(i))) need.insert(n->blocks()[0]->inputs()[i - 1]);
      }
    }
    if (!n->blocks().empty()) {
      for (auto it = n->blocks().rbegin(); it != n->blocks().rend(); ++it) {
        stack.push_back({*it, (*it)->param_node()->next()});
      }
      continue;
    }
    if (grad_off(*n)) {
      auto it = identity.find(n);
      if (it != identity.end() && need.count(it->second)) need.insert(n->output(0));
      continue;
    }
    bool any = std::any_of(n->inputs().begin(), n->inputs().end(),
                           [&](const Value* v) { return need.count(v) > 0; });
    if (!any || n->kind() == kind::Constant) continue;
    // Outputs of ops without a derivative (comparisons, argmax, zeros_like, detach)
    // carry no gradient, as in PyTorch.
    if (n->kind().rfind("aten::", 0) == 0 && !differentiable(n->kind())) continue;
    for (const Value* out : n->outputs()) {
      if (out->type().kind == ir::TypeKind::Any || out->type().is_tensor() ||
          out->type().kind == ir::TypeKind::List || out->type().kind == ir::TypeKind::Tuple) {
        need.insert(out);
      }
    }
  }
  return need;
}

class BackwardBuilder {
 public:
  BackwardBuilder(Graph& g, std::unordered_set<const Value*> need, GradIdentity identity)
      : g_(g), need_(std::move(need)), identity_(std::move(identity)) {}

  // Gradients of the values of one scope (the top block, or one arm of a backward If).
  using Grads = std::unordered_map<const Value*, Value*>;

  // Differentiates the nodes of `nodes` (in program order) backwards, inserting at
  // the graph's insertion point, given and updating `grads`.
  void backprop(const std::vector<Node*>& nodes, Grads& grads) {
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      Node* n = *it;
      bool has_grad = std::any_of(n->outputs().begin(), n->outputs().end(),
                                  [&](const Value* v) { return grads.count(v) > 0; });
      if (!has_grad) continue;
      const std::string& k = n->kind();
      if (grad_off(*n)) {
        auto id = identity_.find(n);
        if (id != identity_.end() && need_.count(id->second)) {
          accumulate(id->second, grads.at(n->output(0)), grads);
        }
        continue;
      }
      if (k == kind::If) {
        backprop_if(n, grads);
      } else if (k == kind::Loop) {
        throw Error("d2s grad: prim::Loop is not supported yet in a static backward graph",
                    n->range(),
                    "use `d2s run --grad`, which differentiates loops at run time, or a trace "
                    "(its loops are unrolled)");
      } else if (k == kind::ListUnpack || k == kind::TupleUnpack) {
        std::vector<Value*> items;
        for (Value* out : n->outputs()) items.push_back(grad_or_none(out, grads));
        accumulate(n->input(0), list_of(items, n), grads);
      } else if (k == kind::ListConstruct || k == kind::TupleConstruct) {
        Node* unpack =
            g_.insert(kind::ListUnpack, {grads.at(n->output(0))}, n->inputs().size(), n->range());
        for (size_t i = 0; i < n->inputs().size(); ++i) {
          if (need_.count(n->input(i))) accumulate(n->input(i), unpack->output(i), grads);
        }
      } else if (k.rfind("aten::", 0) == 0) {
        backprop_op(n, grads);
      } else {
        throw Error("d2s grad: " + k + " is not supported in a static backward graph", n->range());
      }
    }
  }

  void accumulate(const Value* v, Value* g, Grads& grads) {
    auto it = grads.find(v);
    if (it == grads.end()) {
      grads[v] = g;
      return;
    }
    it->second = g_.insert("aten::add", {it->second, g}, 1, g->node()->range())->output();
    it->second->set_type(Type::tensor(DType::Float32));
  }

 private:
  Value* zeros_like(const Value* v, const Node* at) {
    Value* z = g_.insert("aten::zeros_like", {const_cast<Value*>(v)}, 1, at->range())->output();
    z->set_type(v->type());
    return z;
  }

  Value* none(const Node* at) { return g_.insert_constant(IValue(), at->range()); }

  Value* grad_or_none(const Value* v, const Grads& grads) {
    auto it = grads.find(v);
    return it == grads.end() ? none(v->node()) : it->second;
  }

  Value* list_of(const std::vector<Value*>& items, const Node* at) {
    Value* l = g_.insert(kind::ListConstruct, items, 1, at->range())->output();
    l->set_type(Type::list(Type::any()));
    return l;
  }

  void backprop_op(Node* n, Grads& grads) {
    const std::string base = n->kind().substr(6);
    // Not differentiable (zeros_like, argmax, ...): its result is a constant of the
    // inputs, as PyTorch treats it; no gradient flows through it.
    if (!differentiable(n->kind())) return;
    std::vector<Value*> outs;
    for (Value* out : n->outputs()) outs.push_back(grad_or_none(out, grads));
    Value* result = n->outputs().size() == 1
                        ? n->output(0)
                        : g_.insert(kind::TupleConstruct, n->outputs(), 1, n->range())->output();
    Node* back = g_.insert("grad::" + base, {list_of(outs, n), list_of(n->inputs(), n), result}, 1,
                           n->range());
    back->output()->set_type(Type::list(Type::any()));
    Node* unpack = g_.insert(kind::ListUnpack, {back->output()}, n->inputs().size(), n->range());
    for (size_t i = 0; i < n->inputs().size(); ++i) {
      const Value* in = n->input(i);
      if (!need_.count(in) || in->node()->kind() == kind::Constant) continue;
      unpack->output(i)->set_type(in->type());
      accumulate(in, unpack->output(i), grads);
    }
  }

  // A backward If on the same condition. Each arm recomputes its forward arm (cloned:
  // the forward arm's values are not visible after the If) and differentiates it; the
  // arms return the gradients of the outer values either arm uses (zeros where one
  // does not).
  void backprop_if(Node* n, Grads& grads) {
    std::vector<const Value*> outer;
    std::unordered_set<const Value*> seen;
    for (Block* arm : n->blocks()) collect_outer_uses(arm, n, outer, seen);
    Node* bif = g_.insert(kind::If, {n->input(0)}, outer.size(), n->range());
    for (Block* arm : n->blocks()) {
      Block* b = bif->add_block();
      ir::WithInsertPoint at(g_, b);
      std::unordered_map<const Value*, Value*> map;
      std::vector<Node*> cloned = clone_nodes(arm, map);
      Grads arm_grads;
      for (size_t i = 0; i < n->outputs().size(); ++i) {
        auto it = grads.find(n->output(i));
        if (it == grads.end()) continue;
        const Value* produced = arm->outputs()[i];
        auto m = map.find(produced);
        accumulate(m == map.end() ? produced : m->second, it->second, arm_grads);
      }
      backprop(cloned, arm_grads);
      for (const Value* v : outer) {
        auto it = arm_grads.find(v);
        Value* gv = it != arm_grads.end() ? it->second : zeros_like(v, n);
        b->register_output(gv);
      }
    }
    for (size_t i = 0; i < outer.size(); ++i) {
      bif->output(i)->set_type(outer[i]->type());
      accumulate(outer[i], bif->output(i), grads);
    }
  }

  // Values defined outside `owner` that nodes in `b` (nested blocks included) or its
  // outputs use and that may need a gradient.
  void collect_outer_uses(const Block* b, const Node* owner, std::vector<const Value*>& out,
                          std::unordered_set<const Value*>& seen) {
    std::vector<const Block*> todo = {b};
    while (!todo.empty()) {
      const Block* cur = todo.back();
      todo.pop_back();
      auto visit = [&](const Value* v) {
        if (!need_.count(v) || seen.count(v) || defined_inside(v, owner)) return;
        seen.insert(v);
        out.push_back(v);
      };
      for (const Node* n : cur->nodes()) {
        for (const Value* v : n->inputs()) visit(v);
        for (const Block* inner : n->blocks()) todo.push_back(inner);
      }
      for (const Value* v : cur->outputs()) visit(v);
    }
  }

  static bool defined_inside(const Value* v, const Node* owner) {
    for (const Block* b = v->node()->owning_block(); b;) {
      const Node* o = b->owning_node();
      if (o == owner) return true;
      b = o ? o->owning_block() : nullptr;
    }
    return false;
  }

  // Clones a block's nodes at the insertion point; `map` takes the block's values to
  // their clones. Returns the clones of the block's own nodes, in order.
  std::vector<Node*> clone_nodes(const Block* from, std::unordered_map<const Value*, Value*>& map) {
    std::vector<Node*> out;
    for (const Node* n : from->nodes()) {
      if (n->kind() == kind::Print) continue;  // printed once, by the forward
      out.push_back(clone_node(n, map));
    }
    return out;
  }

  Node* clone_node(const Node* n, std::unordered_map<const Value*, Value*>& map) {
    std::vector<Value*> inputs;
    for (Value* v : n->inputs()) {
      auto it = map.find(v);
      inputs.push_back(it == map.end() ? v : it->second);
    }
    Node* c = g_.insert(n->kind(), inputs, n->outputs().size(), n->range());
    c->set_overload(n->overload());
    for (const auto& [name, value] : n->attrs()) c->set_attr(name, value);
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      c->output(i)->set_type(n->output(i)->type());
      map[n->output(i)] = c->output(i);
      if (need_.count(n->output(i))) need_.insert(c->output(i));
    }
    if (auto id = identity_.find(n); id != identity_.end()) {
      auto m = map.find(id->second);
      identity_[c] = m == map.end() ? id->second : m->second;
    }
    for (const Block* b : n->blocks()) {
      Block* cb = c->add_block();
      ir::WithInsertPoint at(g_, cb);
      for (const Value* in : b->inputs()) {
        Value* ci = cb->add_input();
        ci->set_type(in->type());
        map[in] = ci;
        if (need_.count(in)) need_.insert(ci);
      }
      clone_nodes(b, map);
      for (Value* o : b->outputs()) {
        auto it = map.find(o);
        cb->register_output(it == map.end() ? o : it->second);
      }
    }
    return c;
  }

  Graph& g_;
  std::unordered_set<const Value*> need_;  // grows with the clones of needing values
  GradIdentity identity_;                  // grows with the clones of its nodes
};

// The out-of-place op a write computes, for the functional form of the graph: the
// written argument's new value. aten::add_.Tensor → aten::add.Tensor (TorchScript's
// RemoveMutation pairs them the same way); copy_, fill_ and zero_ overwrite, so their
// value is the source broadcast to self, a full_like, a zeros_like.
std::pair<std::string, std::string> functional_form(const Node& n) {
  std::string kind = functional_kind(n.kind());
  if (kind.empty()) return {"", ""};
  const bool same_overloads = kind + "_" == n.kind();
  if (same_overloads && !OpRegistry::builtin().find(kind, n.overload())) return {"", ""};
  return {std::move(kind), same_overloads ? n.overload() : ""};
}

// An op that writes state beside a fresh result (batch_norm's running statistics, not
// its first argument): no derivative reads that state, so the node stays as it is.
bool writes_state_only(const Node& n) {
  const OpDef* def = OpRegistry::builtin().find(n.kind(), n.overload());
  if (!def || !def->mutates) return false;
  for (size_t i : def->schema.written_arguments()) {
    if (i == 0) return false;
  }
  return true;
}

// The node of `block` that holds `n` (n itself, or the node whose blocks nest it).
Node* holder_in(Block* block, Node* n) {
  while (n && n->owning_block() != block) {
    Block* b = n->owning_block();
    n = b ? b->owning_node() : nullptr;
  }
  return n;
}

// Whether `self` is a loop body's carried value (not its iteration counter) whose
// initial value nothing reads after the loop: a write to it then only changes what
// the body carries on, so its functional form is the carried value's new value.
bool carried_write_is_local(Block* block, Value* self) {
  Node* loop = block->owning_node();
  if (!loop || loop->kind() != kind::Loop || self->node() != block->param_node()) return false;
  size_t slot = 0;
  while (slot < block->inputs().size() && block->inputs()[slot] != self) ++slot;
  if (slot == 0 || slot >= block->inputs().size() || slot + 1 >= loop->inputs().size()) {
    return false;
  }
  Value* init = loop->input(slot + 1);
  Block* outer = loop->owning_block();
  std::unordered_map<const Node*, size_t> position;
  size_t i = 0;
  for (Node* m : outer->nodes()) position[m] = i++;
  const size_t at = position[loop];
  for (const ir::Use& u : init->uses()) {
    if (u.user == loop) continue;
    Node* h = holder_in(outer, u.user);
    if (!h || !position.count(h) || position[h] >= at) return false;
  }
  return true;
}

// Makes every in-place write functional, so that the graph can be differentiated as
// dataflow: `%o = aten::add_(%y, %z)` becomes `%o = aten::add(%y, %z)` and every read of
// %y after it (in its block, and in the blocks of later nodes) reads %o. A write that
// this cannot express is an error: into a value of an enclosing block (from an If arm
// or a loop body), or into a tensor that a list or tuple also holds (a later read
// through the list would keep the old value).
void remove_mutation(Graph& graph, GradIdentity* identity) {
  std::unordered_set<const Node*> fresh;  // nodes computing written values (functional_views.h)
  std::vector<std::pair<Block*, Node*>> todo;
  std::vector<Block*> blocks = {graph.block()};
  while (!blocks.empty()) {
    Block* b = blocks.back();
    blocks.pop_back();
    for (Node* n : b->nodes()) {
      if (ir::mutates_inputs(*n)) todo.emplace_back(b, n);
      for (Block* inner : n->blocks()) blocks.push_back(inner);
    }
  }
  for (const auto& write : todo) {
    // Named, not a structured binding: clang 14 lets no lambda capture one.
    Block* block = write.first;
    Node* n = write.second;
    if (writes_state_only(*n)) continue;
    const auto [op, overload] = functional_form(*n);
    if (op.empty() || n->inputs().empty()) {
      throw Error("d2s grad: the in-place " + n->kind() + " has no out-of-place form here",
                  n->range(), "write it out of place; `d2s run --grad` runs it as written");
    }
    Value* self = n->input(0);
    // Only a value computed in the write's own block, or a graph input written at the
    // top level: a loop-carried value or one from an enclosing block would need the new
    // value carried out of the loop or branch.
    const bool own = self->node()->kind() != kind::Param && self->node()->owning_block() == block;
    const bool top_input = block == graph.block() && self->node() == block->param_node();
    const bool carried = carried_write_is_local(block, self);
    if (!own && !top_input && !carried && block->owning_node() &&
        block->owning_node()->kind() == kind::Loop) {
      throw Error("d2s grad: prim::Loop is not supported yet in a static backward graph",
                  block->owning_node()->range(),
                  "use `d2s run --grad`, which differentiates loops at run time, or a trace "
                  "(its loops are unrolled)");
    }
    if (!own && !top_input && !carried) {
      throw Error(
          "d2s grad: an in-place write inside a branch or loop to a value from outside "
          "it is not supported in a static backward graph",
          n->range(), "write it out of place (`y = y + x`); `d2s run --grad` runs it");
    }
    // Program order of the block's nodes, to tell the reads after the write.
    std::unordered_map<const Node*, size_t> position;
    size_t i = 0;
    for (Node* m : block->nodes()) position[m] = i++;
    position[block->return_node()] = i;
    const size_t at = position[n];
    auto after_write = [&](Node* user) {
      Node* h = user == block->return_node() ? user : holder_in(block, user);
      return h && position.count(h) && position[h] > at;
    };
    for (const ir::Use& u : self->uses()) {
      const std::string& k = u.user->kind();
      if ((k == kind::ListConstruct || k == kind::TupleConstruct) && !after_write(u.user)) {
        throw Error(
            "d2s grad: an in-place write to a tensor that a list or tuple also holds "
            "is not supported in a static backward graph",
            n->range(), "write it out of place; `d2s run --grad` runs it as written");
      }
    }

    ir::WithInsertPoint guard(graph, n);
    std::vector<Value*> inputs = n->inputs();
    if (op == "aten::expand_as") {
      // Only self's shape is read: detached, it takes no gradient (the write discards
      // its old value), as copy_'s derivative gives it none that flows.
      Node* shape_of = graph.insert("aten::detach", {self}, 1, n->range());
      shape_of->output()->set_type(self->type());
      inputs = {n->input(1), shape_of->output()};
    }
    if (op == "aten::zeros_like") inputs = {self};
    Node* pure = graph.insert(op, inputs, 1, n->range());
    if (!overload.empty()) pure->set_overload(overload);
    const bool no_grad = grad_off(*n);
    if (no_grad) {
      pure->set_attr(ir::kAttrGradEnabled, IValue(false));
      if (identity) (*identity)[pure] = self;
    }
    Value* value = pure->output();
    value->set_type(self->type());
    value->set_debug_name(self->debug_name());
    std::vector<std::pair<Node*, size_t>> later;
    for (const ir::Use& u : self->uses()) {
      if (u.user != n && u.user != pure && after_write(u.user)) {
        later.emplace_back(u.user, u.offset);
      }
    }
    for (auto [user, offset] : later) user->replace_input(offset, value);
    // A write into a view writes its base (and the base's other views) too.
    fresh.insert(pure);
    std::vector<std::pair<Node*, Value*>> write_backs;
    write_through_views(graph, block, n, self, value, after_write, fresh, &write_backs);
    for (auto [back, base] : write_backs) {
      if (!no_grad) continue;
      back->set_attr(ir::kAttrGradEnabled, IValue(false));
      if (identity) (*identity)[back] = base;
    }
    n->output()->replace_all_uses_with(value);
    n->destroy();
  }
}

}  // namespace

void functionalize(ir::Graph& graph) {
  remove_mutation(graph, nullptr);
}

void build_backward_graph(Graph& graph) {
  if (graph.outputs().empty()) {
    throw Error("the graph has no outputs, so `d2s grad` has nothing to differentiate",
                SourceRange(), "return the loss from the entry");
  }
  GradIdentity identity;
  remove_mutation(graph, &identity);
  const std::unordered_set<const Value*> need = values_needing_grad(graph, identity);
  std::vector<Node*> forward;
  for (Node* n : graph.block()->nodes()) forward.push_back(n);
  Value* loss = graph.outputs()[0];
  std::vector<Value*> wrt;
  for (Value* in : graph.inputs()) {
    if (maybe_float_tensor(in)) wrt.push_back(in);
  }

  BackwardBuilder builder(graph, need, identity);
  BackwardBuilder::Grads grads;
  const SourceRange at = loss->node()->range();
  if (need.count(loss)) {
    // d(sum(loss))/d(loss): ones, which is backward()'s implicit gradient for one element.
    Value* seed = graph.insert("aten::ones_like", {loss}, 1, at)->output();
    seed->set_type(Type::tensor(DType::Float32));
    seed->set_debug_name("grad_" + (loss->debug_name().empty() ? "output" : loss->debug_name()));
    grads[loss] = seed;
    builder.backprop(forward, grads);
  }

  std::vector<Value*> outputs = {loss};
  for (Value* in : wrt) {
    auto it = grads.find(in);
    Value* g =
        it != grads.end() ? it->second : graph.insert("aten::zeros_like", {in}, 1, at)->output();
    if (g == in) g = graph.insert("aten::clone", {in}, 1, at)->output();
    g->set_type(in->type());
    g->set_debug_name("grad_" + in->debug_name());
    outputs.push_back(g);
  }
  graph.block()->return_node()->remove_all_inputs();
  for (Value* v : outputs) graph.register_output(v);
  ir::verify(graph);
}

std::string functional_kind(const std::string& kind) {
  if (kind == "aten::copy_") return "aten::expand_as";
  if (kind == "aten::fill_") return "aten::full_like";
  if (kind == "aten::zero_") return "aten::zeros_like";
  if (kind.empty() || kind.back() != '_') return "";
  std::string base = kind.substr(0, kind.size() - 1);
  return OpRegistry::builtin().overloads(base).empty() ? "" : base;
}

}  // namespace d2s::convert
