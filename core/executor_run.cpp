// Running a plan: the instruction loop, control flow, guards and kernel calls.
#include <ostream>
#include <unordered_map>

#include "core/autograd.h"
#include "core/error.h"
#include "core/executor.h"
#include "core/executor_plan.h"

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
  Runner(const Plan& plan, const ExecOptions& options, ExecStats& stats)
      : plan_(plan),
        options_(options),
        stats_(stats),
        slots_(plan.num_slots),
        filled_(plan.num_slots, 0),
        slot_bytes_(plan.num_slots, 0) {
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

  void set(uint32_t s, IValue v) {
    if (!filled_[s]) {
      filled_[s] = 1;
      if (++live_ > stats_.peak_live_slots) stats_.peak_live_slots = live_;
    }
    const size_t bytes = tensor_bytes(v);
    live_bytes_ += bytes - slot_bytes_[s];
    slot_bytes_[s] = bytes;
    if (live_bytes_ > stats_.peak_tensor_bytes) stats_.peak_tensor_bytes = live_bytes_;
    slots_[s] = std::move(v);
  }
  void release(uint32_t s) {
    if (!filled_[s]) return;
    filled_[s] = 0;
    --live_;
    live_bytes_ -= slot_bytes_[s];
    slot_bytes_[s] = 0;
    slots_[s] = IValue();
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
    for (uint32_t s : b.outputs) outs.push_back(slots_[s]);
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
        return check_guard(ins);
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
      if (ins.what == "shape" || seen.is_list() || seen.is_tuple()) {
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
    std::string message =
        ins.what == "shape" ? "trace guard failed: " + expr + " had shape " + show(seen) +
                                  " when traced, has " + show(current) + " now"
        : ins.what == "rank" ? "trace guard failed: " + expr + " had " + show(seen) +
                                   " dimensions when traced, has " + show(current) + " now"
                             : "trace guard failed: " + expr + " was " + show(seen) +
                                   " when traced, is " + show(current) + " now";
    throw Error(message, ins.range, kGuardHint, 1);
  }

  void call_kernel(const Instr& ins) {
    // One argument vector for every call, so that a call allocates no list; it is
    // emptied right after, so that it keeps no tensor alive past its last use.
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
    IValue result;
    ctx_.dead_args = ins.dead_inputs;
    try {
      result = invoke(ins, args);
      ctx_.dead_args = 0;
      args.clear();
    } catch (const Error& e) {
      if (e.range().known() || e.range().file) throw;
      throw Error(e.message(), ins.range, e.hint(), e.exit_code());
    } catch (const std::bad_alloc&) {
      throw Error(ins.kind + ": out of memory", ins.range);
    } catch (const std::exception& e) {
      throw Error("internal error in " + ins.kind + ": " + e.what(), ins.range);
    }
    if (ins.out.size() == 1) return set(ins.out[0], std::move(result));
    if (ins.out.empty()) return;
    if (!result.is_tuple()) {
      throw Error(
          ins.kind + " returned one value for " + std::to_string(ins.out.size()) + " outputs",
          ins.range);
    }
    set_outputs(ins, result.tuple_items());
  }

  // The kernel call proper: the node's own overload, or the one an earlier run
  // chose for arguments of these kinds, or the first that fits (then remembered).
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
    std::vector<uint8_t>& kinds = kinds_;  // reused: no allocation per call
    kinds.resize(args.size());
    bool simple = true;
    for (size_t i = 0; i < args.size(); ++i) {
      kinds[i] = arg_kind(args[i]);
      simple = simple && kinds[i] != kOther;
    }
    if (k.cached >= 0 && simple && kinds == k.cached_kinds) {
      const size_t c = static_cast<size_t>(k.cached);
      if (bind_in_order(defs[c].schema, (*k.specs)[c], args, nullptr)) {
        return run_op(defs[c], ctx_, args);
      }
    }
    for (size_t i = 0; i < defs.size(); ++i) {
      ValueList trial = args;
      if (!bind_in_order(defs[i].schema, (*k.specs)[i], trial, nullptr)) continue;
      if (k.cached < 0 && simple && k.cacheable) {
        k.cached = static_cast<int>(i);
        k.cached_kinds = kinds;
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

  static std::string short_name(const std::string& kind) {
    size_t colons = kind.rfind("::");
    return colons == std::string::npos ? kind : kind.substr(colons + 2);
  }

  const Plan& plan_;
  const ExecOptions& options_;
  ExecStats& stats_;
  OpContext ctx_;
  std::vector<IValue> slots_;
  std::unordered_map<const Instr*, IValue> own_constants_;  // own_constant()
  std::vector<uint8_t> filled_;
  std::vector<size_t> slot_bytes_;  // tensor bytes each slot holds
  size_t live_ = 0;
  size_t live_bytes_ = 0;
  ValueList args_;
  std::vector<uint8_t> kinds_;
};

}  // namespace exec_detail

Executor::Executor(const ir::Graph& graph, ExecOptions options)
    : plan_(std::make_unique<exec_detail::Plan>(exec_detail::build_plan(graph))),
      options_(options) {}

Executor::~Executor() = default;
Executor::Executor(Executor&&) noexcept = default;
Executor& Executor::operator=(Executor&&) noexcept = default;

ValueList Executor::run(const ValueList& inputs) {
  stats_ = ExecStats{};
  exec_detail::Runner runner(*plan_, options_, stats_);
  return runner.run(inputs);
}

size_t Executor::num_slots() const {
  return plan_->num_slots;
}

}  // namespace d2s
