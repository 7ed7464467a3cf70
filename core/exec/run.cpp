// Running a plan: the instruction loop, control flow, guards and kernel calls.
#include <ostream>
#include <unordered_map>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "core/exec/plan.h"
#include "core/ops/kernels_small_matmul.h"

namespace d2s {

namespace exec_detail {

namespace {

const char* const kGuardHint =
    "this input takes a path the trace did not record; use the parse route (d2s run --mode "
    "parse) or d2s diff to see what tracing lost";

bool is_number(const IValue& v) {
  return v.is_int() || v.is_double() || v.is_bool();
}

// Python's == for the values a guard holds: numbers compare exactly (ints as ints),
// lists and tuples item by item. Recursion follows the values' nesting.
bool same(const IValue& a, const IValue& b) {
  if (a.is_bool() && b.is_bool()) return a.to_bool() == b.to_bool();
  if ((a.is_int() || a.is_bool()) && (b.is_int() || b.is_bool())) return a.to_int() == b.to_int();
  if (is_number(a) && is_number(b)) return a.to_double() == b.to_double();
  if (a.is_string() && b.is_string()) return a.to_string() == b.to_string();
  if (a.is_none() && b.is_none()) return true;
  if ((a.is_list() || a.is_tuple()) && (b.is_list() || b.is_tuple())) {
    const ValueList& x = a.items();
    const ValueList& y = b.items();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!same(x[i], y[i])) return false;
    }
    return true;
  }
  return false;
}

std::string show(const IValue& v) {
  if (v.is_bool()) return v.to_bool() ? "True" : "False";
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    return t.defined() ? "a tensor of shape " + shape_str(t.shape()) : "an undefined tensor";
  }
  return v.repr();
}

}  // namespace

// Holds the slots of one run. Recursion (run_block) follows block nesting only.
class Runner {
 public:
  Runner(const Plan& plan, const ExecOptions& options, ExecStats& stats, Scratch& scratch)
      : plan_(plan),
        options_(options),
        stats_(stats),
        slots_(scratch.slots),
        filled_(scratch.filled),
        slot_bytes_(scratch.slot_bytes) {
    slots_.resize(plan.num_slots);
    filled_.assign(plan.num_slots, 0);
    slot_bytes_.assign(plan.num_slots, 0);
    ctx_.generator = options.generator;
    ctx_.training = options.training;
  }

  ValueList run(const ValueList& inputs) {
    const BlockPlan& top = plan_.blocks.at(0);
    if (inputs.size() != top.inputs.size()) {
      throw Error("the graph takes " + std::to_string(top.inputs.size()) + " input(s), got " +
                  std::to_string(inputs.size()));
    }
    for (const auto& [slot, value] : plan_.static_values) set(slot, value);
    for (size_t i = 0; i < inputs.size(); ++i) set(top.inputs[i], inputs[i]);
    // The inputs are the caller's memory, held by it for the whole run: the count of
    // live tensor bytes is what the run itself adds.
    for (uint32_t s : top.inputs) {
      live_bytes_ -= slot_bytes_[s];
      slot_bytes_[s] = 0;
    }
    stats_.peak_tensor_bytes = live_bytes_;
    return run_block(0);
  }

 private:
  static size_t tensor_bytes(const IValue& v) {
    if (!v.is_tensor() || !v.to_tensor().defined()) return 0;
    return v.to_tensor().impl()->storage->nbytes;
  }

  void set(uint32_t s, const IValue& v) { set(s, IValue(v)); }
  void set(uint32_t s, IValue&& v) {
    count_filled(s, tensor_bytes(v));
    IValue& slot = slots_[s];
    if (slot.is_tensor() && v.is_tensor()) {
      slot.to_tensor() = std::move(v.to_tensor());  // no visit of the variant
    } else {
      slot = std::move(v);
    }
  }
  // A defined tensor, as the direct entries give: no IValue made on the way.
  void set(uint32_t s, Tensor&& t) {
    count_filled(s, t.impl()->storage->nbytes);
    IValue& slot = slots_[s];
    if (slot.is_tensor()) {
      slot.to_tensor() = std::move(t);
    } else {
      slot = IValue(std::move(t));
    }
  }
  // The live-slot and live-byte counts (ExecStats) for slot s now holding `bytes`.
  void count_filled(uint32_t s, size_t bytes) {
    if (!filled_[s]) {
      filled_[s] = 1;
      if (++live_ > stats_.peak_live_slots) stats_.peak_live_slots = live_;
    }
    live_bytes_ += bytes - slot_bytes_[s];
    slot_bytes_[s] = bytes;
    if (live_bytes_ > stats_.peak_tensor_bytes) stats_.peak_tensor_bytes = live_bytes_;
  }
  void release(uint32_t s) {
    if (!filled_[s]) return;
    filled_[s] = 0;
    --live_;
    live_bytes_ -= slot_bytes_[s];
    slot_bytes_[s] = 0;
    IValue& v = slots_[s];
    if (plan_.recycles) recycle(v);
    if (v.is_tensor()) {
      v.to_tensor() = Tensor();  // an undefined tensor: no visit of the variant
    } else {
      v = IValue();
    }
  }

  ValueList run_block(uint32_t index) {
    ValueList outs;
    run_block(index, outs);
    return outs;
  }

  // Runs a block and leaves its results in `outs` (cleared first): a loop passes the
  // same vector on every iteration, so that an iteration allocates no list.
  void run_block(uint32_t index, ValueList& outs) {
    const BlockPlan& b = plan_.blocks[index];
    for (uint32_t s : b.free_on_entry) release(s);
    for (const Instr& ins : b.instrs) {
      ++stats_.instructions;
      if (ins.grad_mode < 0) {
        exec(ins);
      } else {
        // A node recorded or lowered under torch.no_grad() / enable_grad() (attribute
        // grad_enabled) runs in that grad mode, as PyTorch ran it.
        GradModeGuard mode(ins.grad_mode == 1);
        exec(ins);
      }
      for (uint32_t s : ins.free_after) release(s);
    }
    outs.clear();
    outs.reserve(b.outputs.size());
    for (size_t i = 0; i < b.outputs.size(); ++i) {
      IValue& v = slots_[b.outputs[i]];
      outs.push_back(b.move_out[i] ? std::move(v) : v);
    }
    for (uint32_t s : b.free_at_end) release(s);
  }

  void set_outputs(const Instr& ins, ValueList values) {
    if (values.size() != ins.out.size()) {
      throw Error(ins.kind + " produced " + std::to_string(values.size()) + " value(s) for " +
                      std::to_string(ins.out.size()) + " output(s)",
                  ins.range);
    }
    for (size_t i = 0; i < values.size(); ++i) set(ins.out[i], std::move(values[i]));
  }

  // Python's bool() of a condition: numbers, and tensors of one element.
  bool truth(const IValue& v, const Instr& ins) const {
    if (v.is_bool()) return v.to_bool();
    if (v.is_int()) return v.to_int() != 0;
    if (v.is_double()) return v.to_double() != 0;
    if (v.is_tensor() && v.to_tensor().defined()) {
      if (v.to_tensor().numel() != 1) {
        throw Error("RuntimeError: Boolean value of Tensor with more than one value is ambiguous",
                    ins.range);
      }
      return v.to_tensor().item() != 0;
    }
    throw Error("a condition must be a bool, not " + v.type_name(), ins.range);
  }

  int64_t trip_count(const IValue& v, const Instr& ins) const {
    if (v.is_int() || v.is_bool()) return v.to_int();
    throw Error("a loop's trip count must be an int, not " + v.type_name(), ins.range);
  }

  // This run's copy of a constant holding tensors (Plan::writes): made on first use
  // and kept for the run, so that a write through it is seen by every later read, a
  // loop's next iteration included, as the one object it is in the program.
  const IValue& own_constant(const Instr& ins) {
    auto [it, fresh] = own_constants_.try_emplace(&ins);
    if (fresh) it->second = deep_copy_tensors(ins.value);
    return it->second;
  }

  static IValue deep_copy_tensors(const IValue& v) {
    if (v.is_tensor() && v.to_tensor().defined()) return IValue(v.to_tensor().clone());
    if (v.is_list() || v.is_tuple()) {
      ValueList items;
      for (const IValue& item : v.items()) items.push_back(deep_copy_tensors(item));
      return v.is_list() ? IValue::list(std::move(items)) : IValue::tuple(std::move(items));
    }
    return v;
  }

  void exec(const Instr& ins) {
    switch (ins.op) {
      case Op::Kernel:
        return call_kernel(ins);
      case Op::Constant:
        return set(ins.out[0], plan_.writes ? own_constant(ins) : ins.value);
      case Op::If: {
        bool cond = truth(slots_[ins.in[0]], ins);
        return set_outputs(ins, run_block(cond ? ins.block0 : ins.block1));
      }
      case Op::Loop:
        return run_loop(ins);
      case Op::Guard:
        if (options_.check_guards) check_guard(ins);
        return;
      case Op::Print: {
        if (!options_.out) return;
        std::string line;
        for (size_t i = 0; i < ins.in.size(); ++i) {
          if (i) line += ' ';
          line += slots_[ins.in[i]].str();
        }
        *options_.out << line << '\n';
        return;
      }
      case Op::Raise: {
        std::string msg;
        if (!ins.in.empty()) {
          const IValue& m = slots_[ins.in[0]];
          msg = m.is_string() ? m.to_string() : m.is_none() ? "" : m.str();
        }
        // A failed assert is a check that failed (exit 1, as guards); any other raised
        // exception ends the run as the eager interpreter ends it (exit 2).
        throw Error(msg.empty() ? ins.text : ins.text + ": " + msg, ins.range, {},
                    ins.text == "AssertionError" ? 1 : 2);
      }
      case Op::TupleConstruct:
      case Op::ListConstruct: {
        ValueList items;
        items.reserve(ins.in.size());
        for (uint32_t s : ins.in) items.push_back(slots_[s]);
        return set(ins.out[0], ins.op == Op::TupleConstruct ? IValue::tuple(std::move(items))
                                                            : IValue::list(std::move(items)));
      }
      case Op::TupleUnpack:
      case Op::ListUnpack: {
        const IValue& v = slots_[ins.in[0]];
        if (!v.is_tuple() && !v.is_list()) {
          throw Error("cannot unpack a value of type " + v.type_name(), ins.range);
        }
        if (v.items().size() != ins.out.size()) {
          throw Error("ValueError: expected " + std::to_string(ins.out.size()) +
                          " value(s) to unpack, got " + std::to_string(v.items().size()),
                      ins.range);
        }
        return set_outputs(ins, v.items());
      }
      case Op::TupleIndex: {
        const IValue& v = slots_[ins.in[0]];
        const IValue& index = ins.in.size() > 1 ? slots_[ins.in[1]] : ins.value;
        if ((!v.is_tuple() && !v.is_list()) || !(index.is_int() || index.is_bool())) {
          throw Error("cannot index a " + v.type_name() + " with a " + index.type_name(),
                      ins.range);
        }
        const int64_t n = static_cast<int64_t>(v.items().size());
        int64_t i = index.to_int();
        if (i < 0) i += n;
        if (i < 0 || i >= n) throw Error("IndexError: tuple index out of range", ins.range);
        return set(ins.out[0], v.items()[static_cast<size_t>(i)]);
      }
      case Op::Uninitialized:
        return set(ins.out[0], IValue());
    }
  }

  void run_loop(const Instr& ins) {
    const int64_t max_trip = trip_count(slots_[ins.in[0]], ins);
    bool cond = truth(slots_[ins.in[1]], ins);
    ValueList carried;
    carried.reserve(ins.in.size() - 2);
    for (size_t i = 2; i < ins.in.size(); ++i) carried.push_back(slots_[ins.in[i]]);
    const BlockPlan& body = plan_.blocks[ins.block0];
    ValueList results;  // the body's results, reused by every iteration
    for (int64_t trip = 0; trip < max_trip && cond; ++trip) {
      if (++stats_.loop_iterations > options_.max_loop_iterations) {
        throw Error("loop did not finish: more than " +
                        std::to_string(options_.max_loop_iterations) +
                        " loop iterations in one run (the loop at line " +
                        std::to_string(ins.range.line) + ")",
                    ins.range,
                    "a `while` whose condition never becomes False runs forever; check that "
                    "the loop's condition changes");
      }
      set(body.inputs[0], IValue(trip));
      for (size_t i = 0; i < carried.size(); ++i) set(body.inputs[i + 1], std::move(carried[i]));
      run_block(ins.block0, results);
      cond = truth(results[0], ins);
      for (size_t i = 0; i < carried.size(); ++i) carried[i] = std::move(results[i + 1]);
    }
    set_outputs(ins, std::move(carried));
  }

  void check_guard(const Instr& ins) {
    const IValue& now = slots_[ins.in[0]];
    const IValue& seen = ins.value;
    // What the trace compared, taken from the value now: its shape for shape
    // guards, bool()/item() of a one-element tensor for value guards.
    IValue current = now;
    if (now.is_tensor() && now.to_tensor().defined()) {
      const Tensor& t = now.to_tensor();
      if (ins.guard == ir::GuardKind::Shape || seen.is_list() || seen.is_tuple()) {
        current = IValue::int_list(t.shape());
      } else if (t.numel() == 1) {
        double x = t.item();
        if (seen.is_bool())
          current = IValue(x != 0);
        else if (seen.is_int() && t.dtype() != DType::Float32)
          current = IValue(static_cast<int64_t>(x));
        else
          current = IValue(x);
      }
    } else if (seen.is_bool() && is_number(now)) {
      current = IValue(now.to_double() != 0);
    }
    if (same(current, seen)) return;
    const std::string expr = ins.text.empty() ? "the value" : "'" + ins.text + "'";
    std::string message = ins.guard == ir::GuardKind::Shape
                              ? "trace guard failed: " + expr + " had shape " + show(seen) +
                                    " when traced, has " + show(current) + " now"
                          : ins.guard == ir::GuardKind::Rank
                              ? "trace guard failed: " + expr + " had " + show(seen) +
                                    " dimensions when traced, has " + show(current) + " now"
                              : "trace guard failed: " + expr + " was " + show(seen) +
                                    " when traced, is " + show(current) + " now";
    throw Error(message, ins.range, kGuardHint, 1);
  }

  void call_kernel(const Instr& ins) {
    // An op with a direct entry (BoundCall::fast): its result goes straight into the
    // output slot, with no argument list and no IValue on the way.
    const BoundCall& bound = ins.kernel.call;
    if (bound.fast && ins.out.size() == 1) {
      Tensor out;
      if (with_location(ins, [&] { return fast_call(ins, bound, out); })) {
        return set(ins.out[0], std::move(out));
      }
    }
    // The same for a small vector x matrix product (BoundCall::small_matmul).
    if (bound.small_matmul && ins.out.size() == 1) {
      Tensor out;
      if (with_location(ins, [&] { return small_matmul(bound, out); })) {
        return set(ins.out[0], std::move(out));
      }
    }
    IValue result = with_location(ins, [&] { return dispatch(ins); });
    ctx_.dead_args = 0;
    if (plan_.recycles) {
      // Dead arguments the kernel did not write into die here: keep the small ones.
      for (size_t i = 0; i < args_.size() && i < 32; ++i) {
        if (ins.dead_inputs >> i & 1u) recycle(args_[i]);
      }
    }
    // Emptied right after the call, so that it keeps no tensor alive past its last use.
    args_.clear();
    if (ins.out.size() == 1) return set(ins.out[0], std::move(result));
    if (ins.out.empty()) return;
    if (!result.is_tuple()) {
      throw Error(
          ins.kind + " returned one value for " + std::to_string(ins.out.size()) + " outputs",
          ins.range);
    }
    set_outputs(ins, result.tuple_items());
  }

  // f() with the node's location on whatever it throws.
  template <typename F>
  auto with_location(const Instr& ins, F f) -> decltype(f()) {
    try {
      return f();
    } catch (const Error& e) {
      if (e.range().known() || e.range().file) throw;
      throw Error(e.message(), ins.range, e.hint(), e.exit_code());
    } catch (const std::bad_alloc&) {
      throw Error(ins.kind + ": out of memory", ins.range);
    } catch (const std::exception& e) {
      throw Error("internal error in " + ins.kind + ": " + e.what(), ins.range);
    }
  }

  // The kinds of the instruction's arguments now, packed as KernelRef::cached_kinds;
  // kUncoded when one is a list, tuple or object, or there are too many to pack.
  static constexpr uint64_t kUncoded = UINT64_MAX;
  uint64_t kinds_code(const Instr& ins) const {
    if (ins.in.size() > kMaxCodedKinds) return kUncoded;
    uint64_t code = 0;
    for (uint32_t s : ins.in) {
      const uint8_t kind = arg_kind(slots_[s]);
      if (kind == kOther) return kUncoded;
      code = code << 3 | kind;
    }
    return code;
  }

  IValue dispatch(const Instr& ins) {
    KernelRef& k = ins.kernel;
    if (k.call.op && (k.plan_bound || (k.cached >= 0 && kinds_code(ins) == k.cached_kinds))) {
      return call_bound(ins, k.call);
    }
    // One argument vector for every call, so that a call allocates no list.
    ValueList& args = args_;
    args.clear();
    for (size_t i = 0; i < ins.in.size(); ++i) {
      IValue& slot = slots_[ins.in[i]];
      // A value read for the last time moves into the call (its slot is released
      // right after), so that the kernel may write its result into the buffer.
      if (i < 32 && (ins.dead_inputs >> i & 1u)) {
        args.push_back(std::move(slot));
      } else {
        args.push_back(slot);
      }
    }
    ctx_.dead_args = ins.dead_inputs;
    return invoke(ins, args);
  }

  // A bound call: the slots read into the argument list around the values the plan
  // holds, each converted only when it is not of its schema type already.
  IValue call_bound(const Instr& ins, const BoundCall& c) {
    ValueList& args = args_;
    args.clear();
    for (size_t i = 0; i < c.from.size(); ++i) {
      const uint32_t s = c.from[i];
      if (s == kFixedArg) {
        args.push_back(c.fixed[i]);
        continue;
      }
      IValue& slot = slots_[s];
      const bool dead = i < 32 && (ins.dead_inputs >> i & 1u);
      // A tensor is passed as one (IValue(Tensor)): no visit of the variant.
      if (slot.is_tensor()) {
        if (dead) {
          args.emplace_back(std::move(slot.to_tensor()));
        } else {
          args.emplace_back(slot.to_tensor());
        }
      } else if (dead) {
        args.push_back(std::move(slot));
      } else {
        args.push_back(slot);
      }
    }
    ctx_.dead_args = ins.dead_inputs;
    const std::vector<ArgSpec>& specs = *c.specs;
    for (uint16_t i : c.check) {
      IValue& arg = args[i];
      if (specs[i].type == ArgType::Tensor && arg.is_tensor()) continue;
      if (fit_arg(specs[i], arg)) continue;
      if (c.named) {
        throw Error(short_name(ins.kind) + "(): " + bind_error(c.op->schema, i, arg), ins.range,
                    "the schema is:\n  " + c.op->schema.str());
      }
      // Not the kinds the call was bound for: choose among the overloads as an unbound
      // call does, from the values as the slots hold them.
      args.resize(ins.in.size());
      for (size_t j = 0; j < ins.in.size(); ++j) {
        if (c.from[j] == kFixedArg) args[j] = slots_[ins.in[j]];
      }
      return invoke(ins, args);
    }
    return run_op(*c.op, ctx_, args);
  }

  // BoundCall::fast: the op's direct entry on the operands where the slots hold them,
  // told which of them this instruction reads last (a constant the plan holds is never
  // dead: its buffer is the plan's). False, with nothing written, when it declines or the
  // call is to be recorded for the autograd (run_op then records it).
  bool fast_call(const Instr& ins, const BoundCall& c, Tensor& out) {
    const IValue& a = slots_[c.from[0]];
    const IValue* b = c.fast_operands == 2 ? &operand(c, 1) : nullptr;
    if (grad_mode_enabled() && (needs_grad(a) || (b && needs_grad(*b)))) return false;
    uint32_t dead = ins.dead_inputs & 1u;
    if (b && c.from[1] != kFixedArg) dead |= ins.dead_inputs & 2u;
    if (!c.fast(a, b, dead, out)) return false;
    ++stats_.direct_calls;
    return true;
  }

  static bool needs_grad(const IValue& v) { return v.is_tensor() && v.to_tensor().requires_grad(); }

  // BoundCall::small_matmul: a float32 vector x matrix of at most 64 x 64, into a
  // recycled tensor of the result's shape when there is one. False, with nothing
  // done, when it does not apply (the op's kernel then computes and reports), or when
  // the product is to be recorded for the autograd.
  bool small_matmul(const BoundCall& c, Tensor& result) {
    const IValue& av = operand(c, 0);
    const IValue& bv = operand(c, 1);
    if (!av.is_tensor() || !bv.is_tensor()) return false;
    const Tensor& a = av.to_tensor();
    const Tensor& b = bv.to_tensor();
    bool vector = false;
    const int64_t n = kernels::small_matmul_cols(a, b, c.mm, &vector);
    if (n < 0 || (grad_mode_enabled() && (a.requires_grad() || b.requires_grad()))) {
      return false;
    }
    Tensor out;
    for (size_t i = 0; i < spare_.size(); ++i) {
      const Shape& shape = spare_[i].shape();
      if (shape.back() == n && shape.size() == (vector ? 1u : 2u) && shape[0] == (vector ? n : 1)) {
        out = std::move(spare_[i]);
        spare_[i] = std::move(spare_.back());
        spare_.pop_back();
        ++stats_.reused_buffers;
        break;
      }
    }
    if (!out.defined()) {
      out = vector ? Tensor::empty({n}, DType::Float32) : Tensor::empty({1, n}, DType::Float32);
    }
    kernels::small_matmul_into(a, b, out);
    result = std::move(out);
    return true;
  }

  // Argument i of a bound call: its slot, or the value the plan holds.
  const IValue& operand(const BoundCall& c, size_t i) const {
    return c.from[i] == kFixedArg ? c.fixed[i] : slots_[c.from[i]];
  }

  // A value that dies: a small float32 vector nothing else refers to (no view, no
  // alias, no history) is kept for small_matmul to write into, a few at a time.
  void recycle(IValue& v) {
    if (!v.is_tensor() || spare_.size() >= kSpares) return;
    Tensor& t = v.to_tensor();
    if (!t.sole_owner() || t.dtype() != DType::Float32 || t.requires_grad() || t.impl()->autograd) {
      return;
    }
    // Only the shapes small_matmul writes: [n] and [1, n].
    const Shape& shape = t.shape();
    if (shape.empty() || shape.size() > 2 || (shape.size() == 2 && shape[0] != 1) ||
        shape.back() > kernels::kSmallMatmulMax) {
      return;
    }
    spare_.push_back(std::move(t));
  }

  // The kernel call of an unbound node: the node's own overload, or the first that
  // fits (then remembered with the argument kinds, and bound, for later calls).
  IValue invoke(const Instr& ins, ValueList& args) {
    KernelRef& k = ins.kernel;
    const std::vector<OpDef>& defs = *k.overloads;
    std::string why;
    if (k.fixed >= 0) {
      const OpDef& op = defs[static_cast<size_t>(k.fixed)];
      if (!bind_in_order(op.schema, (*k.specs)[static_cast<size_t>(k.fixed)], args, &why)) {
        throw Error(short_name(ins.kind) + "(): " + why, ins.range,
                    "the schema is:\n  " + op.schema.str());
      }
      return run_op(op, ctx_, args);
    }
    for (size_t i = 0; i < defs.size(); ++i) {
      ValueList trial = args;
      if (!bind_in_order(defs[i].schema, (*k.specs)[i], trial, nullptr)) continue;
      if (k.cached < 0 && k.cacheable && !k.plan_bound) {
        const uint64_t code = kinds_code(ins);
        if (code != kUncoded) {
          k.cached = static_cast<int>(i);
          k.cached_kinds = code;
          bind_cached(ins, defs[i], (*k.specs)[i]);
        }
      }
      args.clear();  // the trial's values are now the only references (dead_args)
      return run_op(defs[i], ctx_, trial);
    }
    std::string got = "(";
    for (size_t i = 0; i < args.size(); ++i) got += (i ? ", " : "") + args[i].type_name();
    std::string hint = "candidates:";
    for (const OpDef& d : defs) hint += "\n  " + d.schema.str();
    throw Error(short_name(ins.kind) + "() received an invalid combination of arguments - got " +
                    got + "), which no overload accepts",
                ins.range, hint);
  }

  // KernelRef::call for the overload an unbound node's first call chose: its constant
  // inputs (their slots hold the plan's values) converted once.
  void bind_cached(const Instr& ins, const OpDef& op, const std::vector<ArgSpec>& specs) {
    std::vector<const IValue*> statics(ins.in.size(), nullptr);
    for (size_t i = 0; i < ins.in.size() && i < 32; ++i) {
      if (ins.static_inputs >> i & 1u) statics[i] = &slots_[ins.in[i]];
    }
    ins.kernel.call = bind_call(ins.sym, op, specs, ins.in, statics, false);
  }

  static std::string short_name(const std::string& kind) {
    size_t colons = kind.rfind("::");
    return colons == std::string::npos ? kind : kind.substr(colons + 2);
  }

  const Plan& plan_;
  const ExecOptions& options_;
  ExecStats& stats_;
  OpContext ctx_;
  std::vector<IValue>& slots_;                              // Scratch's
  std::unordered_map<const Instr*, IValue> own_constants_;  // own_constant()
  std::vector<uint8_t>& filled_;
  std::vector<size_t>& slot_bytes_;  // tensor bytes each slot holds
  size_t live_ = 0;
  size_t live_bytes_ = 0;
  ValueList args_;
  // Dead small float32 tensors kept for small_matmul's results (Plan::recycles).
  static constexpr size_t kSpares = 4;
  std::vector<Tensor> spare_;
};

}  // namespace exec_detail

Executor::Executor(const ir::Graph& graph, ExecOptions options)
    : plan_(std::make_unique<exec_detail::Plan>(exec_detail::build_plan(graph))),
      scratch_(std::make_unique<exec_detail::Scratch>()),
      options_(options) {}

Executor::~Executor() = default;
Executor::Executor(Executor&&) noexcept = default;
Executor& Executor::operator=(Executor&&) noexcept = default;

ValueList Executor::run(const ValueList& inputs) {
  stats_ = ExecStats{};
  exec_detail::Runner runner(*plan_, options_, stats_, *scratch_);
  try {
    return runner.run(inputs);
  } catch (...) {
    scratch_->clear_slots();  // a failed run keeps no value alive
    throw;
  }
}

size_t Executor::num_slots() const {
  return plan_->num_slots;
}

bool Executor::calls_backward() const {
  return plan_->calls_backward;
}

}  // namespace d2s
