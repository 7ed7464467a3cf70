#include "core/ir/verify.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <tuple>

#include "core/base/error.h"
#include "core/base/pointer_table.h"
#include "core/ir/printer.h"
#include "core/ops/op_registry.h"

namespace d2s::ir {

namespace {

std::string value_name(const Value* v) {
  return "%" + (v->debug_name().empty() ? std::to_string(v->unique()) : v->debug_name());
}

// The IR's own prim kinds a block may hold (the sentinels only as sentinels).
bool is_known_prim(const Node& n) {
  const Prim p = n.prim();
  return p != Prim::None && p != Prim::Param && p != Prim::Return;
}

bool cond_type_ok(const Type& t) {
  return t.is_tensor() || types_compatible(t, Type::of_bool()) ||
         types_compatible(t, Type::of_int());
}

class Verifier {
 public:
  Verifier(const Graph& g, const NodeRangeFn* range_of) : g_(g), range_of_(range_of) {}

  void run() {
    enter_block(g_.block());
    while (!stack_.empty()) {
      const Block* b = stack_.back().block;
      const Node* n = stack_.back().cur;
      if (n == nullptr) fail_block(b, "the block's node list ends without its return node");
      if (n == b->return_node()) {
        finish_block(b);
        continue;
      }
      check_links(n, b);
      check_node(n);
      check_inputs(n);
      if (n->blocks().empty()) {
        finish_node(n);
      } else {
        enter_block(n->blocks()[0]);
      }
    }
    check_use_lists();
  }

 private:
  struct Frame {
    const Block* block;
    const Node* cur;    // the next node to check
    size_t scope_mark;  // scope_log_ size when the block was entered
  };

  [[noreturn]] void fail(const Node* n, const std::string& what) const {
    SourceRange where = range_of_ ? (*range_of_)(*n) : n->range();
    throw Error("invalid IR: " + what + ", in `" + print_node(*n) + "`", where,
                "the graph is malformed: an IR file that was edited or damaged, or a bug in "
                "d2s (please report it)");
  }
  [[noreturn]] void fail_block(const Block* b, const std::string& what) const {
    if (b->owning_node()) fail(b->owning_node(), what);
    throw Error("invalid IR: " + what + ", in the graph's top block", SourceRange(),
                "the graph is malformed: an IR file that was edited or damaged, or a bug in "
                "d2s (please report it)");
  }

  void define(const Value* v, const Node* at) {
    auto [info, fresh] = values_info_.insert(v);
    if (!fresh) fail(at, "value " + value_name(v) + " is defined twice");
    info->visible = true;
    scope_log_.push_back(v);
    values_.push_back(v);
  }

  bool visible(const Value* v) {
    const ValueInfo* info = values_info_.find(v);
    return info && info->visible;
  }

  void enter_block(const Block* b) {
    const Node* p = b->param_node();
    const Node* r = b->return_node();
    if (b->owning_graph() != &g_) fail_block(b, "a block belongs to another graph");
    if (p == nullptr || r == nullptr || p->prim() != Prim::Param || r->prim() != Prim::Return ||
        p->owning_block() != b || r->owning_block() != b) {
      fail_block(b, "a block's param/return sentinels are broken");
    }
    if (!p->inputs().empty()) fail_block(b, "a block's param node has inputs");
    if (!r->outputs().empty()) fail_block(b, "a block's return node has outputs");
    nodes_.insert(p);
    nodes_.insert(r);
    stack_.push_back(Frame{b, p->next(), scope_log_.size()});
    for (size_t i = 0; i < p->outputs().size(); ++i) {
      const Value* v = p->outputs()[i];
      if (v->node() != p || v->offset() != i) fail_block(b, "a block input's producer is wrong");
      define(v, b->owning_node() ? b->owning_node() : p);
    }
  }

  void finish_block(const Block* b) {
    const Node* r = b->return_node();
    for (size_t i = 0; i < r->inputs().size(); ++i) {
      const Value* v = r->inputs()[i];
      if (!visible(v)) {
        fail_block(b, "the block returns " + value_name(v) + ", which is not visible there");
      }
      count_use(v);
    }
    // Leave the block's scope: what it defined is invisible outside.
    size_t mark = stack_.back().scope_mark;
    for (size_t i = scope_log_.size(); i-- > mark;)
      values_info_.find(scope_log_[i])->visible = false;
    scope_log_.resize(mark);
    stack_.pop_back();

    const Node* owner = b->owning_node();
    if (!owner) return;
    const auto& blocks = owner->blocks();
    size_t idx = 0;
    while (idx < blocks.size() && blocks[idx] != b) ++idx;
    if (idx + 1 < blocks.size()) {
      enter_block(blocks[idx + 1]);
    } else {
      finish_node(owner);
    }
  }

  // The node's outputs become visible after it (and after its blocks).
  void finish_node(const Node* n) {
    for (size_t i = 0; i < n->outputs().size(); ++i) {
      const Value* v = n->outputs()[i];
      if (v->node() != n || v->offset() != i) {
        fail(n, "output " + std::to_string(i) + "'s producer is recorded wrongly");
      }
      define(v, n);
    }
    stack_.back().cur = n->next();
  }

  void check_links(const Node* n, const Block* b) {
    if (!nodes_.insert(n).second) fail(n, "the node is listed twice");
    if (n->is_sentinel()) fail(n, "a block sentinel appears inside a block's node list");
    if (n->owning_block() != b) fail(n, "the node's owning block is not the block listing it");
    if (n->owning_graph() != &g_) fail(n, "the node belongs to another graph");
    if (n->prev() == nullptr || n->prev()->next() != n || n->next() == nullptr ||
        n->next()->prev() != n) {
      fail(n, "the node's prev/next links are inconsistent");
    }
  }

  void check_inputs(const Node* n) {
    for (const Value* v : n->inputs()) {
      if (!visible(v)) {
        fail(n, "input " + value_name(v) +
                    (values_info_.find(v) ? " is used outside the block that defines it"
                                          : " is used before it is defined (or never defined)"));
      }
      count_use(v);
    }
  }

  // Only visible values are counted (anything else failed first), so the entry exists.
  void count_use(const Value* v) { ++values_info_.find(v)->slots; }

  void check_node(const Node* n) {
    const std::string& k = n->kind();
    const Prim p = n->prim();
    const size_t ins = n->inputs().size();
    const size_t outs = n->outputs().size();
    if (!n->range().known()) fail(n, "the node has no source location");
    // prim:: kinds of the IR itself, or any registry op (aten::*, and registry ops
    // spelled prim:: as TorchScript spells them, such as prim::dtype). Both were
    // resolved when the node was made.
    if (!is_known_prim(*n)) {
      if (!n->overloads()) fail(n, "unknown node kind '" + k + "'");
      if (!n->overload().empty() && !n->op()) {
        fail(n, "'" + k + "' has no overload '" + n->overload() + "'");
      }
    }
    // Blocks: only the prims whose entry has them (If, Loop).
    if ((p == Prim::None || prim_info(p).blocks == 0) && !n->blocks().empty()) {
      fail(n, k + " cannot have blocks");
    }
    switch (p) {
      case Prim::If:
        return check_if(n);
      case Prim::Loop:
        return check_loop(n);
      case Prim::Constant: {
        if (ins != 0 || outs != 1) fail(n, "prim::Constant needs no inputs and 1 output");
        const IValue* value = n->attr("value");
        if (!value) fail(n, "prim::Constant has no 'value' attribute");
        if (!types_compatible(type_of(*value), n->output()->type())) {
          fail(n, "the constant's type " + n->output()->type().str() +
                      " does not match its value (" + type_of(*value).str() + ")");
        }
        return;
      }
      case Prim::Guard: {
        if (ins != 1 || outs != 0) fail(n, "prim::Guard needs 1 input and no outputs");
        if (!n->attr("seen")) fail(n, "prim::Guard has no 'seen' attribute");
        const IValue* what = n->attr("what");
        GuardKind g;
        if (what && (!what->is_string() || !parse_guard_kind(what->to_string(), &g))) {
          fail(n, "prim::Guard has an unknown 'what' " + what->repr() +
                      " (known: " + guard_kind_names() + ")");
        }
        return;
      }
      case Prim::Print:
        if (outs != 0) fail(n, "prim::Print has no outputs");
        return;
      case Prim::RaiseException:
        if (ins > 1 || outs != 0) fail(n, "prim::RaiseException takes at most 1 input, no outputs");
        return;
      case Prim::TupleConstruct:
      case Prim::ListConstruct:
        if (outs != 1) fail(n, k + " needs 1 output");
        return;
      case Prim::TupleUnpack:
      case Prim::ListUnpack:
        if (ins != 1) fail(n, k + " needs 1 input");
        return;
      case Prim::TupleIndex: {
        bool ok = outs == 1 && (ins == 2 || (ins == 1 && n->attr("index")));
        if (!ok) fail(n, "prim::TupleIndex needs (tuple, index) inputs and 1 output");
        return;
      }
      case Prim::Uninitialized:
        if (ins != 0 || outs != 1) fail(n, "prim::Uninitialized needs no inputs and 1 output");
        return;
      case Prim::None:
      case Prim::Param:
      case Prim::Return:
        break;
    }
    check_registry_op(n);
  }

  // Registry ops whose inputs and outputs the verifier knows more of than the schema.
  void check_registry_op(const Node* n) {
    const std::string& k = n->kind();
    const Symbol s = n->sym();
    const size_t ins = n->inputs().size();
    const size_t outs = n->outputs().size();
    if (s == op::unchecked_cast) {
      // Optional refinement: an Optional (T?) known not to be None, as its T.
      if (ins != 1 || outs != 1) fail(n, "prim::unchecked_cast needs 1 input and 1 output");
      const Type& in = n->input(0)->type();
      if (in.kind != TypeKind::Optional && in.kind != TypeKind::Any) {
        fail(n, "prim::unchecked_cast needs an Optional input, has " + in.str());
      }
      if (in.kind == TypeKind::Optional && !in.elements.empty()) {
        check_types(n, in.elements[0], n->output()->type(),
                    "prim::unchecked_cast gives the Optional's element type");
      }
    } else if (s == op::DictConstruct) {
      // key, value pairs (core/ops/kernels_dict.cpp) making one Dict(K, V).
      if (ins % 2 != 0 || outs != 1) {
        fail(n, "prim::DictConstruct needs key, value pairs and 1 output");
      }
      const Type& t = n->output()->type();
      if (t.kind != TypeKind::Dict && t.kind != TypeKind::Any) {
        fail(n, "prim::DictConstruct makes a Dict, typed " + t.str());
      }
      for (size_t i = 0; t.kind == TypeKind::Dict && t.elements.size() == 2 && i < ins; ++i) {
        check_types(n, n->input(i)->type(), t.elements[i % 2],
                    i % 2 ? "a value of the dict does not match its value type"
                          : "a key of the dict does not match its key type");
      }
    } else if (s == op::is || s == op::isnot) {
      if (ins != 2 || outs != 1) fail(n, k + " needs 2 inputs and 1 output");
      check_types(n, n->output()->type(), Type::of_bool(), k + " gives a bool");
    }
  }

  void check_types(const Node* n, const Type& a, const Type& b, const std::string& what) {
    if (!types_compatible(a, b)) fail(n, what + ": " + a.str() + " vs " + b.str());
  }

  void check_if(const Node* n) {
    if (n->inputs().size() != 1) {
      fail(n, "prim::If needs 1 input (its condition), has " + std::to_string(n->inputs().size()));
    }
    if (!cond_type_ok(n->input(0)->type())) {
      fail(n, "the condition has type " + n->input(0)->type().str());
    }
    if (n->blocks().size() != 2) {
      fail(n, "prim::If needs 2 blocks, has " + std::to_string(n->blocks().size()));
    }
    for (size_t bi = 0; bi < 2; ++bi) {
      const Block* b = n->blocks()[bi];
      const std::string name = bi == 0 ? "then" : "else";
      if (!b->inputs().empty()) fail(n, "the " + name + " block of prim::If takes inputs");
      if (b->outputs().size() != n->outputs().size()) {
        fail(n, "the " + name + " block returns " + std::to_string(b->outputs().size()) +
                    " value(s) but the If has " + std::to_string(n->outputs().size()) +
                    " output(s)");
      }
      for (size_t i = 0; i < b->outputs().size(); ++i) {
        check_types(n, b->outputs()[i]->type(), n->outputs()[i]->type(),
                    "output " + std::to_string(i) + " of the " + name +
                        " block does not match the If's type");
      }
    }
  }

  void check_loop(const Node* n) {
    const size_t ins = n->inputs().size();
    if (ins < 2) {
      fail(n, "prim::Loop needs at least 2 inputs (max trip count, condition), has " +
                  std::to_string(ins));
    }
    if (n->blocks().size() != 1) {
      fail(n, "prim::Loop needs 1 body block, has " + std::to_string(n->blocks().size()));
    }
    const size_t carried = ins - 2;
    const Block* body = n->blocks()[0];
    if (body->inputs().size() != carried + 1) {
      fail(n, "the loop body takes " + std::to_string(body->inputs().size()) +
                  " input(s); it needs the trip index and " + std::to_string(carried) +
                  " carried value(s)");
    }
    if (body->outputs().size() != carried + 1) {
      fail(n, "the loop body returns " + std::to_string(body->outputs().size()) +
                  " value(s); it needs the condition and " + std::to_string(carried) +
                  " carried value(s)");
    }
    if (n->outputs().size() != carried) {
      fail(n, "prim::Loop has " + std::to_string(n->outputs().size()) + " output(s) but " +
                  std::to_string(carried) + " carried value(s)");
    }
    check_types(n, n->input(0)->type(), Type::of_int(), "the max trip count must be an int");
    if (!cond_type_ok(n->input(1)->type()) || !cond_type_ok(body->outputs()[0]->type())) {
      fail(n, "the loop condition must be a bool");
    }
    check_types(n, body->inputs()[0]->type(), Type::of_int(), "the trip index must be an int");
    for (size_t i = 0; i < carried; ++i) {
      const std::string what = "carried value " + std::to_string(i) + " changes type";
      const Type& t = n->input(2 + i)->type();
      check_types(n, t, body->inputs()[1 + i]->type(), what);
      check_types(n, t, body->outputs()[1 + i]->type(), what);
      check_types(n, t, n->outputs()[i]->type(), what);
    }
  }

  // Every use must name an input slot holding the value, each slot exactly once,
  // and the users must be nodes of the graph.
  void check_use_lists() {
    for (const Value* v : values_) {
      const size_t slots = values_info_.find(v)->slots;
      const std::vector<Use>& uses = v->uses();
      const size_t first_repeat = first_repeated_use(uses);
      for (size_t i = 0; i < uses.size(); ++i) {
        const Use& u = uses[i];
        if (!nodes_.find(u.user)) {
          fail(v->node()->is_sentinel() && v->node()->owning_block()->owning_node()
                   ? v->node()->owning_block()->owning_node()
                   : v->node(),
               "a use of " + value_name(v) + " names a node that is not in the graph");
        }
        if (u.offset >= u.user->inputs().size() || u.user->inputs()[u.offset] != v ||
            i == first_repeat) {
          fail(u.user, "the use list of " + value_name(v) + " does not match the node's inputs");
        }
      }
      if (uses.size() != slots) {
        fail(v->node(), "the use list of " + value_name(v) + " has " + std::to_string(uses.size()) +
                            " entries but the value is used " + std::to_string(slots) + " time(s)");
      }
    }
  }

  // The position of the first use that repeats an earlier one, or uses.size(): a
  // look back for short lists, a sort of (use, position) for long ones.
  size_t first_repeated_use(const std::vector<Use>& uses) {
    if (uses.size() <= 16) {
      for (size_t i = 1; i < uses.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
          if (uses[j] == uses[i]) return i;
        }
      }
      return uses.size();
    }
    sorted_uses_.clear();
    for (size_t i = 0; i < uses.size(); ++i) {
      sorted_uses_.push_back({reinterpret_cast<uintptr_t>(uses[i].user), uses[i].offset, i});
    }
    std::sort(sorted_uses_.begin(), sorted_uses_.end());
    size_t first = uses.size();
    for (size_t i = 1; i < sorted_uses_.size(); ++i) {
      const auto& [user, offset, pos] = sorted_uses_[i];
      const auto& [prev_user, prev_offset, prev_pos] = sorted_uses_[i - 1];
      if (user == prev_user && offset == prev_offset) first = std::min(first, pos);
    }
    return first;
  }

  const Graph& g_;
  const NodeRangeFn* range_of_;
  std::vector<Frame> stack_;
  struct ValueInfo {
    size_t slots = 0;      // input slots (and block returns) that read the value
    bool visible = false;  // defined, and its block is still open
  };
  PointerTable<ValueInfo> values_info_;  // every value defined so far
  std::vector<const Value*> scope_log_;
  std::vector<const Value*> values_;  // in definition order
  PointerTable<char> nodes_;
  std::vector<std::tuple<uintptr_t, size_t, size_t>> sorted_uses_;
};

}  // namespace

void verify(const Graph& graph) {
  Verifier(graph, nullptr).run();
}

void verify(const Graph& graph, const NodeRangeFn& range_of) {
  Verifier(graph, &range_of).run();
}

}  // namespace d2s::ir
