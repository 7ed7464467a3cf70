// Internal to the executor: the plan a graph is compiled to (executor_plan.cpp)
// and run from (executor_run.cpp).
//
// Every IR value gets a slot number. Each block becomes a BlockPlan: the slots of
// its inputs and outputs and a flat list of instructions, each with its input and
// output slots and the slots to release after it. Nested blocks are referred to
// by index into Plan::blocks; block 0 is the graph's top block.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/ir.h"
#include "core/ops/kernels_fast.h"
#include "core/ops/op_registry.h"
#include "core/tensor/ivalue.h"

namespace d2s::exec_detail {

enum class Op : uint8_t {
  Kernel,  // a registry op
  Constant,
  If,
  Loop,
  Guard,
  Print,
  Raise,
  TupleConstruct,
  TupleUnpack,
  TupleIndex,
  ListConstruct,
  ListUnpack,
  Uninitialized,
};

struct ArgSpec {
  ArgType type;
  bool optional;  // `?`: None is accepted too
};
std::vector<ArgSpec> arg_specs(const OpSchema& schema);

// Binds node inputs, given in schema order (keyword-only arguments included,
// trailing defaults possibly omitted), to `schema`: converts them as the registry
// does and appends the missing defaults. False (with the reason in `why`) when they
// do not fit; `args` may then be partly converted.
bool bind_in_order(const OpSchema& schema, const std::vector<ArgSpec>& specs, ValueList& args,
                   std::string* why);

// Where a bound call's argument comes from (BoundCall::from): a slot, or kFixedArg for
// a value the plan holds (a constant input already converted, or a default).
constexpr uint32_t kFixedArg = UINT32_MAX;

// An aten call bound to one overload once, instead of on every call: the planner binds
// a node that names its overload or whose op has only one; the run binds the overload
// the first call chose for a node that names none (KernelRef::cached). A call then
// reads its slots into the list and converts only what is not already of its schema
// type (Tensor arguments holding tensors need nothing): no default is appended, no
// constant converted and no overload looked up per call.
struct BoundCall {
  const OpDef* op = nullptr;                    // null: not bound
  const std::vector<ArgSpec>* specs = nullptr;  // op's (Plan::specs)
  std::vector<uint32_t> from;                   // per argument: its slot, or kFixedArg
  ValueList fixed;                              // per argument: the value when kFixedArg
  std::vector<uint16_t> check;  // slot arguments whose schema type is not Any: fit per call
  // The node named the overload: a value that does not fit is the binder's error. Else
  // the call goes back to choosing among the overloads, which reports as it did.
  bool named = false;
  // aten::matmul / aten::mm: a float32 vector x matrix of at most 64 x 64 takes
  // kernels::small_matmul_into, into a buffer the run recycled (Runner::spare_).
  bool small_matmul = false;
  bool mm = false;  // the op is aten::mm (2-D operands only)
  // The op's direct entry (core/ops/kernels_fast.h), when it has one and the call fits
  // it (operands read from slots or constants, add/sub's alpha the constant 1): the run
  // calls it on the slots themselves and builds no argument list, falling back to the
  // bound call when it declines.
  kernels::FastKernel fast = nullptr;
  uint8_t fast_operands = 0;
};

// How an aten node reaches its kernel: its overload when the node names one (as
// the lowering and the tracer do), else the first overload, in registry order,
// that the arguments fit — chosen on the first run and kept while later runs pass
// arguments of the same kinds.
struct KernelRef {
  const std::vector<OpDef>* overloads = nullptr;
  const std::vector<std::vector<ArgSpec>>* specs = nullptr;  // per overload (Plan::specs)
  int fixed = -1;                                            // the node's overload
  int cached = -1;                                           // chosen by an earlier run
  uint64_t cached_kinds = 0;  // ArgKind of each argument then, 3 bits each (kinds_code)
  bool cacheable = true;      // false when an overload's fit depends on a value (dtype codes)
  bool plan_bound = false;    // `call` was bound by the planner: every call takes it
  BoundCall call;             // fixed's (or the only overload's) from the plan; cached's from a run
};

struct Instr {
  Op op = Op::Kernel;
  std::string kind;   // the node's kind, for messages
  ir::Symbol sym;     // the same, interned (ir::Node::sym)
  SourceRange range;  // the node's location
  std::vector<uint32_t> in;
  std::vector<uint32_t> out;
  std::vector<uint32_t> free_after;  // slots whose last use is this instruction
  // Kernel: bit i set when input i's slot is read by this instruction alone and for
  // the last time, so the run moves its value into the call instead of copying it
  // (OpContext::dead_args: the kernel may reuse the buffer). Inputs past 32 are copied.
  uint32_t dead_inputs = 0;
  // Kernel: bit i set when input i is a plain constant (Plan::static_values), so that a
  // call bound at run time holds it converted (BoundCall::fixed). Inputs past 32: read.
  uint32_t static_inputs = 0;
  uint32_t block0 = 0;    // If: then block; Loop: body
  uint32_t block1 = 0;    // If: else block
  int8_t grad_mode = -1;  // the node's attribute grad_enabled: 0 or 1; -1 when it has none
  IValue value;           // Constant: value; Guard: seen; TupleIndex: index attr
  std::string text;       // Guard: expr; Raise: exception kind
  ir::GuardKind guard = ir::GuardKind::Value;  // Guard: what was baked (attr "what")
  mutable KernelRef kernel;                    // a cache, filled while running
};

struct BlockPlan {
  std::vector<uint32_t> inputs;
  std::vector<Instr> instrs;
  std::vector<uint32_t> outputs;
  std::vector<uint32_t> free_on_entry;  // inputs nothing in the block uses
  std::vector<uint32_t> free_at_end;    // slots last used by the block's return
  // Per output: 1 when its slot is freed at the return and returned once, so that the
  // value moves out (a loop's carried tensor then has one owner for the next iteration).
  std::vector<uint8_t> move_out;
};

struct Plan {
  std::vector<BlockPlan> blocks;
  uint32_t num_slots = 0;
  // Constants that are plain numbers, bools, strings or None: their slots are filled
  // once when a run starts and never released, instead of by an instruction each
  // time (a loop body would otherwise copy its constants on every iteration).
  std::vector<std::pair<uint32_t, IValue>> static_values;
  // The graph writes into values (a node of an op marked `Tensor(a!)`): each run then
  // works on its own copy of every tensor constant, so that a write never reaches the
  // graph's constant and a second run starts from the same values as the first.
  bool writes = false;
  // Parsed argument types of each overload of every op the graph calls, keyed by the
  // registry's overload list: parsed once per op, not per node (KernelRef points here;
  // an unordered_map's elements stay put when the Plan moves).
  std::unordered_map<const std::vector<OpDef>*, std::vector<std::vector<ArgSpec>>> specs;
  // Some call may take the small matmul (BoundCall::small_matmul): the run keeps a few
  // dead small float tensors to write its results into.
  bool recycles = false;
  // The graph calls aten::backward (a parsed `loss.backward()`): its runs tape.
  bool calls_backward = false;
};

// Argument kinds the kernel cache distinguishes; a call with Other (lists, tuples,
// objects) among its arguments chooses its overload afresh.
enum ArgKind : uint8_t { kNone, kBool, kInt, kDouble, kStr, kTensor, kOther };
uint8_t arg_kind(const IValue& v);
// Up to kMaxCodedKinds kinds packed 3 bits each, as KernelRef::cached_kinds holds them.
constexpr size_t kMaxCodedKinds = 21;

// Converts one argument to its schema type as the registry does (bool -> int for int,
// a number -> float for float, ...); false when it does not fit.
bool fit_arg(const ArgSpec& spec, IValue& v);
// The binder's message for argument i, which does not fit its schema type.
std::string bind_error(const OpSchema& schema, size_t i, const IValue& arg);
// Binds overload `op` for a node whose inputs are read from `slots`, `statics` giving the
// value of each input that is a plan constant (null for the others): constants
// converted, defaults appended. An unbound call (op null) when a constant does not fit,
// or arguments are missing or too many: the call is then bound per run, which reports.
// `kind` is the node's interned kind (Instr::sym).
BoundCall bind_call(ir::Symbol kind, const OpDef& op, const std::vector<ArgSpec>& specs,
                    const std::vector<uint32_t>& slots, const std::vector<const IValue*>& statics,
                    bool named);

Plan build_plan(const ir::Graph& graph);

// The value slots of a run, kept by the Executor between runs so that a run does not
// allocate and free one IValue per value of the graph. Between runs every slot but the
// plain constants' is empty. An Executor thus runs one run at a time (as the overload
// cache in KernelRef already required).
struct Scratch {
  std::vector<IValue> slots;
  std::vector<uint8_t> filled;
  std::vector<size_t> slot_bytes;  // tensor bytes each slot holds
  void clear_slots() {
    for (IValue& v : slots) v = IValue();
  }
};

}  // namespace d2s::exec_detail
