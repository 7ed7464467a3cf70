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

#include "core/ir.h"
#include "core/ivalue.h"
#include "core/op_registry.h"

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

// A schema argument type, parsed once: what the executor's binder converts to.
enum class ArgType : uint8_t {
  Tensor,
  Scalar,
  Int,
  Float,
  Bool,
  Str,
  Any,
  ScalarType,
  IntList,
  FloatList,
  StrList,
  TensorList,
  OptionalTensorList,  // Tensor?[]: items may be None
  AnyList,
  Dict,  // the graph's runtime dict (core/kernels_dict.cpp)
  Unknown,
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

// How an aten node reaches its kernel: its overload when the node names one (as
// the lowering and the tracer do), else the first overload, in registry order,
// that the arguments fit — chosen on the first run and kept while later runs pass
// arguments of the same kinds.
struct KernelRef {
  const std::vector<OpDef>* overloads = nullptr;
  const std::vector<std::vector<ArgSpec>>* specs = nullptr;  // per overload (Plan::specs)
  int fixed = -1;                                            // the node's overload
  int cached = -1;                                           // chosen by an earlier run
  std::vector<uint8_t> cached_kinds;                         // ArgKind of each argument then
  bool cacheable = true;  // false when an overload's fit depends on a value (dtype codes)
};

struct Instr {
  Op op = Op::Kernel;
  std::string kind;   // the node's kind, for messages
  SourceRange range;  // the node's location
  std::vector<uint32_t> in;
  std::vector<uint32_t> out;
  std::vector<uint32_t> free_after;  // slots whose last use is this instruction
  // Kernel: bit i set when input i's slot is read by this instruction alone and for
  // the last time, so the run moves its value into the call instead of copying it
  // (OpContext::dead_args: the kernel may reuse the buffer). Inputs past 32 are copied.
  uint32_t dead_inputs = 0;
  uint32_t block0 = 0;       // If: then block; Loop: body
  uint32_t block1 = 0;       // If: else block
  int8_t grad_mode = -1;     // the node's attribute grad_enabled: 0 or 1; -1 when it has none
  IValue value;              // Constant: value; Guard: seen; TupleIndex: index attr
  std::string text;          // Guard: expr; Raise: exception kind
  std::string what;          // Guard: what was baked ("shape", "bool", ...)
  mutable KernelRef kernel;  // a cache, filled while running
};

struct BlockPlan {
  std::vector<uint32_t> inputs;
  std::vector<Instr> instrs;
  std::vector<uint32_t> outputs;
  std::vector<uint32_t> free_on_entry;  // inputs nothing in the block uses
  std::vector<uint32_t> free_at_end;    // slots last used by the block's return
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
};

// Argument kinds the kernel cache distinguishes; a call with Other (lists, tuples,
// objects) among its arguments chooses its overload afresh.
enum ArgKind : uint8_t { kNone, kBool, kInt, kDouble, kStr, kTensor, kOther };
uint8_t arg_kind(const IValue& v);

Plan build_plan(const ir::Graph& graph);

}  // namespace d2s::exec_detail
