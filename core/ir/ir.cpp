#include "core/ir/ir.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/ops/op_registry.h"

namespace d2s::ir {

namespace {

// Misuse of the graph API is a bug in d2s, not in the user's program; it is still
// reported through the one error type so that no caller sees a different channel.
void check(bool ok, const char* what) {
  if (!ok) throw Error(std::string("internal error: IR API misuse: ") + what);
}

// Removes the use (user, offset). Searching from the back makes destroying nodes in
// reverse order (the common case: a block, a dead chain) linear overall.
void remove_use(Value* v, Node* user, size_t offset) {
  auto& uses = const_cast<std::vector<Use>&>(v->uses());
  for (size_t i = uses.size(); i-- > 0;) {
    if (uses[i].user == user && uses[i].offset == offset) {
      uses.erase(uses.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

}  // namespace

// ------------------------------------------------------------------------ Value

void Value::set_debug_name(const std::string& name) {
  debug_name_ = name;
}

void Value::replace_all_uses_with(Value* other) {
  check(other != nullptr, "replace_all_uses_with(nullptr)");
  if (other == this) return;
  for (const Use& u : uses_) {
    u.user->inputs_[u.offset] = other;
    other->uses_.push_back(u);
  }
  uses_.clear();
}

// ------------------------------------------------------------------------- Node

void Node::add_input(Value* v) {
  check(v != nullptr, "add_input(nullptr)");
  inputs_.push_back(v);
  v->uses_.push_back(Use{this, inputs_.size() - 1});
}

void Node::replace_input(size_t i, Value* v) {
  check(i < inputs_.size() && v != nullptr, "replace_input: bad index or null value");
  remove_use(inputs_[i], this, i);
  inputs_[i] = v;
  v->uses_.push_back(Use{this, i});
}

void Node::remove_input(size_t i) {
  check(i < inputs_.size(), "remove_input: bad index");
  remove_use(inputs_[i], this, i);
  // Later inputs shift down by one; their use records must follow.
  for (size_t j = i + 1; j < inputs_.size(); ++j) {
    for (Use& u : inputs_[j]->uses_) {
      if (u.user == this && u.offset == j) {
        u.offset = j - 1;
        break;
      }
    }
  }
  inputs_.erase(inputs_.begin() + static_cast<std::ptrdiff_t>(i));
}

void Node::remove_all_inputs() {
  for (size_t i = inputs_.size(); i-- > 0;) remove_use(inputs_[i], this, i);
  inputs_.clear();
}

Value* Node::add_output() {
  Value* v = graph_->new_value(this, outputs_.size());
  outputs_.push_back(v);
  return v;
}

void Node::erase_output(size_t i) {
  check(i < outputs_.size(), "erase_output: bad index");
  check(!outputs_[i]->has_uses(), "erase_output: the output still has uses");
  outputs_.erase(outputs_.begin() + static_cast<std::ptrdiff_t>(i));
  for (size_t j = i; j < outputs_.size(); ++j) outputs_[j]->offset_ = j;
}

Block* Node::add_block() {
  Block* b = graph_->new_block(this);
  blocks_.push_back(b);
  return b;
}

const IValue* Node::attr(const std::string& name) const {
  for (const auto& [k, v] : attrs_) {
    if (k == name) return &v;
  }
  return nullptr;
}

void Node::set_attr(const std::string& name, IValue value) {
  for (auto& [k, v] : attrs_) {
    if (k == name) {
      v = std::move(value);
      return;
    }
  }
  attrs_.emplace_back(name, std::move(value));
}

Node::Node(Graph* g, std::string kind, SourceRange range)
    : graph_(g), kind_(std::move(kind)), range_(std::move(range)) {
  sym_ = Symbol::intern(kind_);
  if (sym_.prim() != Prim::None) return;
  const std::vector<OpDef>& defs = OpRegistry::builtin().overloads(kind_);
  if (!defs.empty()) overloads_ = &defs;
  resolve_op();
}

void Node::set_overload(std::string o) {
  overload_ = std::move(o);
  resolve_op();
}

// As the executor binds: the named overload, else the only one; several and none
// named leaves the choice to the run (by the arguments' types).
void Node::resolve_op() {
  op_ = nullptr;
  if (!overloads_) return;
  if (overload_.empty()) {
    if (overloads_->size() == 1) op_ = &overloads_->front();
    return;
  }
  for (const OpDef& def : *overloads_) {
    if (def.schema.overload == overload_) op_ = &def;
    if (op_) return;
  }
}

bool Node::is_sentinel() const {
  const Prim p = prim();
  return p == Prim::Param || p == Prim::Return;
}

void Node::insert_before(Node* n) {
  check(n != nullptr && n->owning_block_ != nullptr, "insert_before: target is not in a block");
  check(n->prim() != Prim::Param || n->owning_block_->param_ != n,
        "insert_before: cannot insert before a block's param node");
  check(!in_block_list() && prev_ == nullptr, "insert_before: node is already in a block");
  check(!is_sentinel(), "insert_before: sentinels cannot be moved");
  check(n->graph_ == graph_, "insert_before: nodes of different graphs");
  prev_ = n->prev_;
  next_ = n;
  n->prev_->next_ = this;
  n->prev_ = this;
  owning_block_ = n->owning_block_;
}

void Node::insert_after(Node* n) {
  check(n != nullptr && n->owning_block_ != nullptr, "insert_after: target is not in a block");
  check(n != n->owning_block_->return_, "insert_after: cannot insert after a block's return");
  insert_before(n->next_);
}

void Node::move_before(Node* n) {
  check(n != this, "move_before: a node cannot move before itself");
  if (in_block_list()) unlink();
  insert_before(n);
}

void Node::unlink() {
  check(!is_sentinel(), "unlink: sentinels cannot be unlinked");
  if (prev_) prev_->next_ = next_;
  if (next_) next_->prev_ = prev_;
  prev_ = next_ = nullptr;
  owning_block_ = nullptr;
}

void Node::destroy() {
  check(!is_sentinel(), "destroy: sentinels are destroyed with their block");
  for (Value* out : outputs_) check(!out->has_uses(), "destroy: an output still has uses");
  // Every block nested in this node, an owner's block before the blocks of its nodes:
  // a work list, not recursion, since If nesting can be as deep as the program is long.
  std::vector<Block*> nested(blocks_.begin(), blocks_.end());
  for (size_t i = 0; i < nested.size(); ++i) {
    for (Node* n : nested[i]->nodes())
      nested.insert(nested.end(), n->blocks_.begin(), n->blocks_.end());
  }
  // Innermost blocks first, each last node first, so that every use of a value is
  // dropped before the node defining it goes; a node's own blocks are empty by the
  // time it is freed.
  for (size_t i = nested.size(); i-- > 0;) {
    Block* b = nested[i];
    b->return_->remove_all_inputs();
    if (graph_->insert_point_ == b->return_) graph_->insert_point_ = graph_->top_->return_;
    for (Node* n = b->return_->prev_; n != b->param_;) {
      Node* prev = n->prev_;
      for (Value* out : n->outputs_)
        check(!out->has_uses(), "destroy: a nested value is used outside");
      n->remove_all_inputs();
      if (graph_->insert_point_ == n) graph_->insert_point_ = graph_->top_->return_;
      n->unlink();
      graph_->free_node(n);
      n = prev;
    }
  }
  remove_all_inputs();
  if (graph_->insert_point_ == this) {
    graph_->insert_point_ = next_ ? next_ : graph_->top_->return_;
  }
  if (in_block_list()) unlink();
  graph_->free_node(this);  // last: `this` is gone after it
}

// ------------------------------------------------------------------------ Block

Block::Block(Graph* g, Node* owning_node) : graph_(g), owning_node_(owning_node) {
  param_ = g->create(kind::Param, {}, 0, SourceRange());
  return_ = g->create(kind::Return, {}, 0, SourceRange());
  // The list runs param → ... → return; the sentinels' outer links stay null so that
  // walking next() from any node ends after the return node.
  param_->next_ = return_;
  return_->prev_ = param_;
  param_->owning_block_ = this;
  return_->owning_block_ = this;
}

const std::vector<Value*>& Block::inputs() const {
  return param_->outputs();
}
const std::vector<Value*>& Block::outputs() const {
  return return_->inputs();
}

Value* Block::add_input(const std::string& name) {
  Value* v = param_->add_output();
  if (!name.empty()) v->set_debug_name(name);
  return v;
}

void Block::register_output(Value* v) {
  return_->add_input(v);
}

Node* Block::append(Node* n) {
  n->insert_before(return_);
  return n;
}

// ------------------------------------------------------------------------ Graph

Graph::Graph() {
  top_ = new_block(nullptr);
  insert_point_ = top_->return_;
}

Graph::~Graph() = default;

Value* Graph::new_value(Node* n, size_t offset) {
  values_.push_back(std::unique_ptr<Value>(new Value(n, offset, next_unique_++)));
  values_.back()->slot_ = values_.size() - 1;
  return values_.back().get();
}

Block* Graph::new_block(Node* owner) {
  blocks_.push_back(std::unique_ptr<Block>(new Block(this, owner)));
  blocks_.back()->slot_ = blocks_.size() - 1;
  return blocks_.back().get();
}

// Removes the object at its slot by moving the last one there: O(1), order not kept
// (the lists only own; nothing iterates them in order).
template <typename T>
void Graph::swap_and_pop(std::vector<std::unique_ptr<T>>& list, T* item) {
  const size_t slot = item->slot_;
  check(slot < list.size() && list[slot].get() == item, "free: object not owned by its graph");
  if (slot + 1 != list.size()) {
    std::swap(list[slot], list.back());
    list[slot]->slot_ = slot;
  }
  list.pop_back();
}

void Graph::free_value(Value* v) {
  swap_and_pop(values_, v);
}

void Graph::free_block(Block* b) {
  free_node(b->param_);   // its outputs are the block's inputs
  free_node(b->return_);  // its inputs were dropped when the block was emptied
  swap_and_pop(blocks_, b);
}

void Graph::free_node(Node* n) {
  for (Value* v : n->outputs_) free_value(v);
  for (Block* b : n->blocks_) free_block(b);
  swap_and_pop(nodes_, n);
}

Value* Graph::add_input(const std::string& name, Type type) {
  Value* v = top_->add_input(name);
  v->set_type(std::move(type));
  return v;
}

Node* Graph::create(std::string kind, const std::vector<Value*>& inputs, size_t num_outputs,
                    SourceRange range) {
  nodes_.push_back(std::unique_ptr<Node>(new Node(this, std::move(kind), std::move(range))));
  Node* n = nodes_.back().get();
  n->slot_ = nodes_.size() - 1;
  for (Value* v : inputs) n->add_input(v);
  for (size_t i = 0; i < num_outputs; ++i) n->add_output();
  return n;
}

Node* Graph::insert(std::string kind, const std::vector<Value*>& inputs, size_t num_outputs,
                    SourceRange range) {
  Node* n = create(std::move(kind), inputs, num_outputs, std::move(range));
  n->insert_before(insert_point_);
  return n;
}

Value* Graph::insert_constant(const IValue& value, SourceRange range) {
  Node* n = insert(kind::Constant, {}, 1, std::move(range));
  n->set_attr("value", value);
  n->output()->set_type(type_of(value));
  return n->output();
}

size_t Graph::node_count() const {
  size_t count = 0;
  std::vector<const Block*> stack{top_};
  while (!stack.empty()) {
    const Block* b = stack.back();
    stack.pop_back();
    for (Node* n : b->nodes()) {
      ++count;
      for (Block* nested : n->blocks()) stack.push_back(nested);
    }
  }
  return count;
}

Graph::Cloned Graph::clone() const {
  Cloned out;
  out.graph = std::make_unique<Graph>();
  Graph& g = *out.graph;
  g.route = route;
  g.entry = entry;
  g.source = source;
  auto& map = out.value_map;
  map.reserve(values_.size());
  auto copy_value = [&map](const Value* from, Value* to) {
    to->set_type(from->type());
    to->debug_name_ = from->debug_name_;
    map.emplace(from, to);
  };
  auto mapped = [&map](const Value* v) {
    auto it = map.find(v);
    check(it != map.end(), "clone: a value is used outside its scope");
    return it->second;
  };
  // One block at a time from a work list, no recursion: a node's blocks are made
  // with the node (so their order is kept) and filled after the rest of its block.
  // Whatever a nested block reads from outside was defined before its node, in a
  // block already copied.
  std::vector<std::pair<const Block*, Block*>> work{{top_, g.top_}};
  while (!work.empty()) {
    const Block* from = work.back().first;
    Block* to = work.back().second;
    work.pop_back();
    for (const Value* v : from->inputs()) copy_value(v, to->add_input());
    for (const Node* n : from->nodes()) {
      Node* c = g.create(n->kind_, {}, n->outputs_.size(), n->range_);
      for (const Value* in : n->inputs_) c->add_input(mapped(in));
      c->set_overload(n->overload_);
      c->attrs_ = n->attrs_;  // constants' tensors are shared, as IValue copies share
      for (size_t i = 0; i < n->outputs_.size(); ++i) copy_value(n->outputs_[i], c->outputs_[i]);
      to->append(c);
      for (const Block* b : n->blocks_) work.emplace_back(b, c->add_block());
    }
    for (const Value* v : from->outputs()) to->register_output(mapped(v));
  }
  return out;
}

}  // namespace d2s::ir
