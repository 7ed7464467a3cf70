// Writes through views, made functional: see functional_views.h.
#include "convert/functional_views.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "convert/lower_context.h"
#include "core/base/error.h"
#include "core/ops/op_registry.h"

namespace d2s::convert {

namespace {

using ir::Block;
using ir::Graph;
using ir::Node;
using ir::Type;
using ir::Value;

const OpDef* op_of(const Node& n) {
  const OpRegistry& reg = OpRegistry::builtin();
  if (const OpDef* def = reg.find(n.kind(), n.overload())) return def;
  const auto& defs = reg.overloads(n.kind());
  return defs.empty() ? nullptr : &defs.front();
}

bool is_view_node(const Node& n) {
  const OpDef* def = op_of(n);
  return def && def->is_view;
}

[[noreturn]] void refuse(const Node& write, const Node& view, const std::string& why) {
  throw Error("d2s grad: an in-place write through " + view.kind() + " (" + why +
                  ") is not supported in a static backward graph",
              write.range(), "write it out of place; `d2s run --grad` runs it as written");
}

Value* insert(Graph& g, const std::string& kind, const std::vector<Value*>& inputs, Type type,
              const SourceRange& range, const std::string& overload = "") {
  Node* n = g.insert(kind, inputs, 1, range);
  if (!overload.empty()) n->set_overload(overload);
  n->output()->set_type(std::move(type));
  return n->output();
}

// The ints of a constant int list, or of a list built of int constants.
bool constant_ints(Value* v, std::vector<int64_t>* out) {
  if (auto c = constant_value(v); c && c->is_list()) {
    *out = c->to_int_list();
    return true;
  }
  if (v->node()->kind() != ir::kind::ListConstruct) return false;
  for (Value* item : v->node()->inputs()) {
    auto c = constant_value(item);
    if (!c || !c->is_int()) return false;
    out->push_back(c->to_int());
  }
  return true;
}

// The base of view node `view` with `src` written where the view's elements are.
Value* scatter_back(Graph& g, const Node& write, Node* view, Value* src) {
  const std::string& k = view->kind();
  Value* base = view->input(0);
  const SourceRange& at = write.range();
  auto in = [&](size_t i) { return view->input(i); };
  if (k == "aten::select") {
    return insert(g, "aten::select_scatter", {base, src, in(1), in(2)}, base->type(), at);
  }
  if (k == "aten::slice") {
    return insert(g, "aten::slice_scatter", {base, src, in(1), in(2), in(3), in(4)}, base->type(),
                  at);
  }
  if (k == "aten::narrow") {
    auto start = constant_value(in(2));
    auto length = constant_value(in(3));
    if (!start || !length || !start->is_int() || !length->is_int() || start->to_int() < 0) {
      refuse(write, *view, "a start that is not a constant from the front");
    }
    Value* end = g.insert_constant(IValue(start->to_int() + length->to_int()), at);
    Value* step = g.insert_constant(IValue(int64_t{1}), at);
    return insert(g, "aten::slice_scatter", {base, src, in(1), in(2), end, step}, base->type(), at);
  }
  if (k == "aten::diagonal") {
    // diagonal_scatter takes diagonal's offset, dim1 and dim2 with the same defaults.
    std::vector<Value*> args{base, src};
    for (size_t i = 1; i < view->inputs().size(); ++i) args.push_back(in(i));
    return insert(g, "aten::diagonal_scatter", args, base->type(), at);
  }
  if (k == "aten::transpose") {
    return insert(g, "aten::transpose", {src, in(1), in(2)}, base->type(), at, "int");
  }
  if (k == "aten::t" || k == "aten::numpy_T") return insert(g, k, {src}, base->type(), at);
  if (k == "aten::permute") {
    std::vector<int64_t> p;
    if (!constant_ints(in(1), &p)) refuse(write, *view, "dims that are not constants");
    const int64_t n = static_cast<int64_t>(p.size());
    std::vector<int64_t> inverse(p.size());
    for (int64_t i = 0; i < n; ++i) inverse[p[i] < 0 ? p[i] + n : p[i]] = i;
    Value* inv = g.insert_constant(IValue::int_list(inverse), at);
    return insert(g, "aten::permute", {src, inv}, base->type(), at);
  }
  if (k == "aten::view" || k == "aten::reshape" || k == "aten::view_as" ||
      k == "aten::reshape_as" || k == "aten::flatten" || k == "aten::squeeze" ||
      k == "aten::unsqueeze") {
    Value* size = insert(g, "aten::size", {base}, Type::list(Type::of_int()), at);
    return insert(g, "aten::reshape", {src, size}, base->type(), at);
  }
  refuse(write, *view, "its elements have no functional write-back here");
}

}  // namespace

void write_through_views(Graph& graph, Block* block, Node* write, Value* self, Value* value,
                         const std::function<bool(Node*)>& after_write,
                         std::unordered_set<const Node*>& fresh,
                         std::vector<std::pair<Node*, Value*>>* write_backs) {
  auto replace_later_reads = [&](Value* old_value, Value* new_value) {
    std::vector<std::pair<Node*, size_t>> later;
    for (const ir::Use& u : old_value->uses()) {
      if (u.user != write && after_write(u.user)) later.emplace_back(u.user, u.offset);
    }
    for (auto [user, offset] : later) user->replace_input(offset, new_value);
  };
  // Up the chain: each base gets the written view's elements.
  Value* root = self;
  Value* root_new = value;
  while (is_view_node(*root->node()) && !fresh.count(root->node())) {
    Node* view = root->node();
    if (view->owning_block() != block) refuse(*write, *view, "a view taken in another block");
    if (view->outputs().size() != 1) refuse(*write, *view, "one of several views");
    Value* base_new = scatter_back(graph, *write, view, root_new);
    fresh.insert(base_new->node());
    if (write_backs) write_backs->emplace_back(base_new->node(), view->input(0));
    base_new->set_debug_name(view->input(0)->debug_name());
    replace_later_reads(view->input(0), base_new);
    root = view->input(0);
    root_new = base_new;
  }
  // Down the tree: the views of the base taken before the write and read after it
  // (themselves or through views of theirs) are taken again from the new base.
  std::vector<Node*> views;  // breadth first from root
  std::vector<Value*> frontier{root};
  for (size_t i = 0; i < frontier.size(); ++i) {
    // The pieces of split/chunk/unbind: the view's list result is unpacked or indexed.
    const bool pieces =
        frontier[i]->type().kind == ir::TypeKind::List && is_view_node(*frontier[i]->node());
    for (const ir::Use& u : frontier[i]->uses()) {
      Node* user = u.user;
      const bool takes_piece =
          pieces && (user->kind() == ir::kind::ListUnpack || user->kind() == "aten::__getitem__");
      if (u.offset != 0 || !(is_view_node(*user) || takes_piece) || user->owning_block() != block ||
          after_write(user) || user == write) {
        continue;
      }
      views.push_back(user);
      for (Value* out : user->outputs()) frontier.push_back(out);
    }
  }
  // Which of them are needed: read after the write, or the way to one that is.
  std::unordered_map<const Node*, bool> needed;
  for (size_t i = views.size(); i-- > 0;) {
    bool need = false;
    for (Value* out : views[i]->outputs()) {
      for (const ir::Use& u : out->uses()) {
        if (u.user != write && (after_write(u.user) || needed[u.user])) need = true;
      }
    }
    needed[views[i]] = need;
  }
  std::unordered_map<const Value*, Value*> renewed{{root, root_new}};
  for (Node* view : views) {
    if (!needed[view]) continue;
    auto parent = renewed.find(view->input(0));
    if (parent == renewed.end()) continue;
    std::vector<Value*> inputs = view->inputs();
    inputs[0] = parent->second;
    Node* again = graph.insert(view->kind(), inputs, view->outputs().size(), write->range());
    if (!view->overload().empty()) again->set_overload(view->overload());
    for (size_t k = 0; k < view->outputs().size(); ++k) {
      Value* old_out = view->output(k);
      Value* new_out = again->output(k);
      new_out->set_type(old_out->type());
      new_out->set_debug_name(old_out->debug_name());
      replace_later_reads(old_out, new_out);
      renewed[old_out] = new_out;
    }
  }
}

}  // namespace d2s::convert
