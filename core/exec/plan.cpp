// Planning: a graph to flat per-block instruction lists over slots, with liveness.
#include "core/exec/plan.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "core/base/error.h"
#include "core/ir/effects.h"
#include "core/ir/printer.h"

namespace d2s::exec_detail {

uint8_t arg_kind(const IValue& v) {
  if (v.is_none()) return kNone;
  if (v.is_bool()) return kBool;
  if (v.is_int()) return kInt;
  if (v.is_double()) return kDouble;
  if (v.is_string()) return kStr;
  if (v.is_tensor()) return kTensor;
  return kOther;
}

namespace {

using ir::Block;
using ir::Node;
using ir::Value;

constexpr int64_t kNoUse = -1;
constexpr int64_t kAtReturn = std::numeric_limits<int64_t>::max();

// The instruction of a node: a switch on its prim, resolved when the node was made.
Op op_of(ir::Prim p) {
  using ir::Prim;
  switch (p) {
    case Prim::Constant:
      return Op::Constant;
    case Prim::If:
      return Op::If;
    case Prim::Loop:
      return Op::Loop;
    case Prim::Guard:
      return Op::Guard;
    case Prim::Print:
      return Op::Print;
    case Prim::RaiseException:
      return Op::Raise;
    case Prim::TupleConstruct:
      return Op::TupleConstruct;
    case Prim::TupleUnpack:
      return Op::TupleUnpack;
    case Prim::TupleIndex:
      return Op::TupleIndex;
    case Prim::ListConstruct:
      return Op::ListConstruct;
    case Prim::ListUnpack:
      return Op::ListUnpack;
    case Prim::Uninitialized:
      return Op::Uninitialized;
    case Prim::None:
    case Prim::Param:
    case Prim::Return:
      break;
  }
  return Op::Kernel;
}

[[noreturn]] void fail(const Node* n, const std::string& message) {
  throw Error(message + " (in `" + ir::print_node(*n) + "`)", n->range(),
              "the graph cannot be executed; run it through the verifier to see what is wrong");
}

class Planner {
 public:
  Plan build(const ir::Graph& g) {
    slot_of_.assign(g.value_unique_bound(), kNoSlot);
    plan_block(g.block());
    // Each slot is released after its last use in the block that defines it
    // (uses in nested blocks count at the If/Loop that holds them).
    for (uint32_t s = 0; s < info_.size(); ++s) {
      const SlotInfo& i = info_[s];
      if (i.is_static) continue;
      BlockPlan& b = plan_.blocks[i.block];
      if (i.last_use == kAtReturn) {
        b.free_at_end.push_back(s);
      } else if (i.last_use == kNoUse) {
        if (i.def_pos < 0) {
          b.free_on_entry.push_back(s);
        } else {
          b.instrs[static_cast<size_t>(i.def_pos)].free_after.push_back(s);
        }
      } else {
        b.instrs[static_cast<size_t>(i.last_use)].free_after.push_back(s);
      }
    }
    for (BlockPlan& b : plan_.blocks) {
      for (Instr& ins : b.instrs) mark_dead_inputs(ins);
      mark_moved_outputs(b);
    }
    drop_unread_statics();
    plan_.num_slots = static_cast<uint32_t>(info_.size());
    return std::move(plan_);
  }

 private:
  struct SlotInfo {
    const Value* value;      // the value (a value of another graph may share its unique())
    uint32_t block;          // the BlockPlan defining the value
    const Block* def_block;  // the same, as an IR block
    int64_t def_pos;         // defining instruction; -1 for a block input
    int64_t last_use = kNoUse;
    bool is_static = false;   // in Plan::static_values
    size_t static_index = 0;  // its place there
  };

  // BlockPlan::move_out: a result the block returns for the last time moves out.
  static void mark_moved_outputs(BlockPlan& b) {
    b.move_out.assign(b.outputs.size(), 0);
    for (size_t i = 0; i < b.outputs.size(); ++i) {
      const uint32_t s = b.outputs[i];
      if (std::count(b.outputs.begin(), b.outputs.end(), s) == 1 &&
          std::find(b.free_at_end.begin(), b.free_at_end.end(), s) != b.free_at_end.end()) {
        b.move_out[i] = 1;
      }
    }
  }

  // A plain constant read only by calls bound with their overload named (which hold it
  // converted, BoundCall::fixed) needs no slot filled at each run.
  void drop_unread_statics() {
    std::vector<uint8_t> read(info_.size(), 0);
    for (const BlockPlan& b : plan_.blocks) {
      for (const Instr& ins : b.instrs) {
        if (ins.op == Op::Kernel && ins.kernel.call.op && ins.kernel.call.named) continue;
        for (uint32_t s : ins.in) read[s] = 1;
      }
      for (uint32_t s : b.outputs) read[s] = 1;
    }
    auto& values = plan_.static_values;
    values.erase(
        std::remove_if(values.begin(), values.end(),
                       [&](const std::pair<uint32_t, IValue>& v) { return !read[v.first]; }),
        values.end());
  }

  // Instr::dead_inputs: inputs whose slot this kernel call frees and reads once.
  static void mark_dead_inputs(Instr& ins) {
    if (ins.op != Op::Kernel) return;
    for (size_t i = 0; i < ins.in.size() && i < 32; ++i) {
      const uint32_t s = ins.in[i];
      const bool freed =
          std::find(ins.free_after.begin(), ins.free_after.end(), s) != ins.free_after.end();
      if (freed && std::count(ins.in.begin(), ins.in.end(), s) == 1) {
        ins.dead_inputs |= uint32_t{1} << i;
      }
    }
  }

  uint32_t define(const Value* v, uint32_t block, const Block* b, int64_t pos, const Node* at) {
    uint32_t s = static_cast<uint32_t>(info_.size());
    // A node of another graph placed in this one may bring larger uniques.
    if (v->unique() >= slot_of_.size()) slot_of_.resize(v->unique() + 1, kNoSlot);
    uint32_t& slot = slot_of_[v->unique()];
    if (slot != kNoSlot) fail(at, "a value is defined twice");
    slot = s;
    info_.push_back(SlotInfo{v, block, b, pos});
    return s;
  }

  // Records a use of `v` by `user`, lifted to the node of v's own block that holds
  // the use: a value read inside a loop body lives until the loop ends.
  uint32_t use(const Value* v, const Node* user, const Node* report) {
    const uint32_t slot = v->unique() < slot_of_.size() ? slot_of_[v->unique()] : kNoSlot;
    if (slot == kNoSlot || info_[slot].value != v) {
      fail(report, "a value is used before it is defined");
    }
    SlotInfo& info = info_[slot];
    const Node* a = user;
    while (a->owning_block() != info.def_block) {
      const Block* b = a->owning_block();
      a = b ? b->owning_node() : nullptr;
      if (!a) fail(report, "a value is used outside the block that defines it");
    }
    int64_t pos = kAtReturn;
    if (a != info.def_block->return_node()) {
      // `a` is the node being planned in its block (a use is recorded while its node,
      // or the node whose blocks hold it, is planned): that block's entry in open_.
      auto open = std::find_if(open_.rbegin(), open_.rend(),
                               [&](const OpenBlock& o) { return o.block == info.def_block; });
      if (open == open_.rend() || open->node != a) {
        fail(report, "a value is used before it is defined");
      }
      pos = open->pos;
    }
    if (info.last_use == kNoUse || pos > info.last_use) info.last_use = pos;
    return slot;
  }

  // Recursion follows block nesting only; nodes are a loop.
  uint32_t plan_block(const Block* b) {
    const uint32_t bi = static_cast<uint32_t>(plan_.blocks.size());
    plan_.blocks.emplace_back();
    {
      std::vector<uint32_t> inputs;
      for (const Value* v : b->inputs()) {
        inputs.push_back(
            define(v, bi, b, -1, b->owning_node() ? b->owning_node() : b->param_node()));
      }
      plan_.blocks[bi].inputs = std::move(inputs);
    }
    // Sized once: a 100,000-node trace otherwise grows its instruction list by
    // doubling, touching twice the memory (page faults were a third of planning).
    size_t count = 0;
    for ([[maybe_unused]] const Node* n : b->nodes()) ++count;
    plan_.blocks[bi].instrs.reserve(count);
    const size_t open_index = open_.size();
    open_.push_back(OpenBlock{b, nullptr, -1});
    for (const Node* n : b->nodes()) {
      if (plan_static(n, bi, b)) continue;
      const int64_t pos = static_cast<int64_t>(plan_.blocks[bi].instrs.size());
      open_[open_index].node = n;  // by index: nested blocks push onto open_
      open_[open_index].pos = pos;
      Instr ins = make_instr(n);
      plan_.writes = plan_.writes || ir::mutates_inputs(*n);
      plan_.calls_backward = plan_.calls_backward || n->sym() == ir::op::backward;
      for (const Value* v : n->inputs()) ins.in.push_back(use(v, n, n));
      if (ins.op == Op::Kernel) bind_kernel(ins);
      if (ins.op == Op::If || ins.op == Op::Loop) {
        ins.block0 = plan_block(n->blocks().at(0));
        if (ins.op == Op::If) ins.block1 = plan_block(n->blocks().at(1));
      } else if (!n->blocks().empty()) {
        fail(n, n->kind() + " cannot have blocks");
      }
      for (const Value* v : n->outputs()) ins.out.push_back(define(v, bi, b, pos, n));
      // plan_.blocks may have grown (nested blocks): index again.
      plan_.blocks[bi].instrs.push_back(std::move(ins));
    }
    open_.pop_back();
    std::vector<uint32_t> outputs;
    const Node* ret = b->return_node();
    const Node* report = b->owning_node() ? b->owning_node() : ret;
    for (const Value* v : b->outputs()) outputs.push_back(use(v, ret, report));
    plan_.blocks[bi].outputs = std::move(outputs);
    return bi;
  }

  // A constant that is a plain value becomes a static slot (Plan::static_values).
  // Lists, tuples and tensors stay instructions: a program may mutate those.
  bool plan_static(const Node* n, uint32_t bi, const Block* b) {
    if (n->prim() != ir::Prim::Constant || n->outputs().size() != 1) return false;
    const IValue* v = n->attr("value");
    if (!v || !(v->is_none() || v->is_number() || v->is_string())) return false;
    const uint32_t s = define(n->outputs()[0], bi, b, -1, n);
    info_[s].is_static = true;
    info_[s].static_index = plan_.static_values.size();
    plan_.static_values.emplace_back(s, *v);
    return true;
  }

  Instr make_instr(const Node* n) {
    Instr ins;
    ins.op = op_of(n->prim());
    ins.kind = n->kind();
    ins.sym = n->sym();
    ins.range = n->range();
    if (const IValue* mode = n->attr(ir::kAttrGradEnabled); mode && mode->is_bool()) {
      ins.grad_mode = mode->to_bool() ? 1 : 0;
    }
    auto attr_str = [n](const char* name) {
      const IValue* v = n->attr(name);
      return v && v->is_string() ? v->to_string() : std::string();
    };
    switch (ins.op) {
      case Op::Constant: {
        const IValue* v = n->attr("value");
        if (!v || n->outputs().size() != 1) fail(n, "a constant needs a value and one output");
        ins.value = *v;
        break;
      }
      case Op::If:
        if (n->blocks().size() != 2 || n->inputs().size() != 1) fail(n, "malformed prim::If");
        break;
      case Op::Loop:
        if (n->blocks().size() != 1 || n->inputs().size() < 2 ||
            n->blocks()[0]->inputs().size() != n->inputs().size() - 1 ||
            n->blocks()[0]->outputs().size() != n->inputs().size() - 1 ||
            n->outputs().size() != n->inputs().size() - 2) {
          fail(n, "malformed prim::Loop");
        }
        break;
      case Op::Guard: {
        const IValue* seen = n->attr("seen");
        if (!seen || n->inputs().size() != 1) fail(n, "a guard needs one input and 'seen'");
        ins.value = *seen;
        ins.text = attr_str("expr");
        if (!ir::parse_guard_kind(attr_str("what"), &ins.guard)) {
          fail(n, "unknown guard kind '" + attr_str("what") +
                      "' (known: " + ir::guard_kind_names() + ")");
        }
        break;
      }
      case Op::Raise:
        ins.text = attr_str("kind");
        if (ins.text.empty()) ins.text = "AssertionError";
        break;
      case Op::TupleIndex:
        if (const IValue* index = n->attr("index")) ins.value = *index;
        break;
      case Op::Kernel:
        plan_kernel(n, ins.kernel);
        break;
      default:
        break;
    }
    return ins;
  }

  void plan_kernel(const Node* n, KernelRef& k) {
    // The node's overloads and named overload were resolved when it was made.
    if (!n->overloads()) fail(n, "unknown operator '" + n->kind() + "'");
    const std::vector<OpDef>& defs = *n->overloads();
    k.overloads = &defs;
    auto it = plan_.specs.find(&defs);
    if (it == plan_.specs.end()) {
      std::vector<std::vector<ArgSpec>> specs;
      for (const OpDef& def : defs) specs.push_back(arg_specs(def.schema));
      it = plan_.specs.emplace(&defs, std::move(specs)).first;
    }
    k.specs = &it->second;
    for (size_t i = 0; i < defs.size(); ++i) {
      for (const ArgSpec& a : it->second[i]) {
        if (a.type == ArgType::ScalarType) k.cacheable = false;
      }
    }
    if (!n->overload().empty() && n->op()) k.fixed = static_cast<int>(n->op() - defs.data());
    if (!n->overload().empty() && k.fixed < 0) {
      fail(n, "'" + n->kind() + "' has no overload '" + n->overload() + "'");
    }
  }

  // KernelRef::call for a node that names its overload or whose op has only one.
  void bind_kernel(Instr& ins) {
    KernelRef& k = ins.kernel;
    const int o = k.fixed >= 0 ? k.fixed : k.overloads->size() == 1 ? 0 : -1;
    std::vector<const IValue*>& statics = statics_;  // reused: no allocation per node
    statics.assign(ins.in.size(), nullptr);
    for (size_t i = 0; i < ins.in.size(); ++i) {
      const SlotInfo& info = info_[ins.in[i]];
      if (!info.is_static) continue;
      statics[i] = &plan_.static_values[info.static_index].second;
      if (i < 32) ins.static_inputs |= uint32_t{1} << i;
    }
    if (o < 0) return;
    const size_t at = static_cast<size_t>(o);
    k.call = bind_call(ins.sym, (*k.overloads)[at], (*k.specs)[at], ins.in, statics, k.fixed >= 0);
    k.plan_bound = k.call.op != nullptr;
    plan_.recycles = plan_.recycles || k.call.small_matmul;
  }

  Plan plan_;
  std::vector<const IValue*> statics_;
  std::vector<SlotInfo> info_;
  // Each value's slot, indexed by Value::unique(): no hashing of 100,000 addresses
  // (a pointer table here was a tenth of `d2s diff`'s time on a 100,000-node trace).
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  std::vector<uint32_t> slot_of_;
  // The blocks being planned, outermost first, each with the node being planned in it
  // and that node's instruction position: where a use is recorded.
  struct OpenBlock {
    const Block* block;
    const Node* node;
    int64_t pos;
  };
  std::vector<OpenBlock> open_;
};

}  // namespace

Plan build_plan(const ir::Graph& graph) {
  return Planner().build(graph);
}

}  // namespace d2s::exec_detail
