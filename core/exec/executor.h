// The reference CPU executor: runs a graph (either route's) on input values.
//
//   Executor exec(graph, ExecOptions{&generator, /*training=*/false, &std::cout});
//   ValueList outputs = exec.run({x, h});
//
// The graph is planned once, in the constructor, into a flat instruction list per
// block over numbered value slots: running does no name or map look-ups. Each
// aten node is bound to its registry OpDef at plan time when it names its overload
// or its op has only one (constant arguments converted, defaults appended once),
// else to the overload the arguments pick on the first run, kept while later runs
// pass arguments of the same kinds. Small float32 vector x matrix products write
// into the buffer of a small tensor that died earlier in the run. Liveness is precomputed: a slot
// is released right after its last use, and a value used inside a loop body or a branch stays alive
// until that loop or If finishes, so long chains keep only a few tensors alive.
//
// Semantics are TorchScript's: prim::If runs one block and moves its returns to the
// If's outputs; prim::Loop runs its body while trip < max_trip_count and cond,
// passing (trip, carried...) in and (cond, carried...) out; prim::Guard compares
// the value now with the one seen when tracing (exactly for numbers and bools;
// the shape for "shape" guards) and fails with exit code 1; prim::Print writes
// its inputs' str() joined by spaces; prim::RaiseException (a failed assert) is a
// d2s::Error with exit code 1, `AssertionError: msg` at the assert's line.
//
// Errors are d2s::Error at the node's source location. Nothing recurses in
// proportion to graph length (only block nesting), and the total number of loop
// iterations per run is limited so that an endless `while` ends with a message.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>

#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"

namespace d2s {

class Generator;

namespace exec_detail {
struct Plan;
struct Scratch;
class Runner;
}  // namespace exec_detail

struct ExecOptions {
  Generator* generator = nullptr;  // random ops (rand, randn, dropout in training)
  bool training = false;           // OpContext::training
  std::ostream* out = nullptr;     // where prim::Print writes; null discards
  // Iterations of all loops together in one run; past it, the run fails at the loop.
  // The interpreter's default (trace/interpreter.h Limits): a runaway loop stops in seconds.
  int64_t max_loop_iterations = 1'000'000;
  // false: every prim::Guard passes, so a guarded trace computes what the same trace
  // without its guards (`--no-guards`) computes. The diff runs set 0's guarded trace
  // both ways from one plan instead of planning its plain copy too.
  bool check_guards = true;
};

// Counters of the last run, for tests and reports.
struct ExecStats {
  int64_t instructions = 0;     // instructions executed
  int64_t loop_iterations = 0;  // loop body runs
  size_t peak_live_slots = 0;   // most value slots holding a value at once
  // Most tensor bytes held by live slots at once, the graph's inputs not counted (a
  // view counts as its own bytes): with every value freed after its last use, the
  // liveness lower bound of the memory a run adds to its inputs.
  size_t peak_tensor_bytes = 0;
  // Small products (vector x matrix, float32, up to 64 x 64) written into the buffer of a
  // tensor that died earlier in the run instead of a fresh one.
  int64_t reused_buffers = 0;
  // Kernel calls that took the op's direct entry (core/ops/kernels_fast.h) instead of
  // the registry's call.
  int64_t direct_calls = 0;
};

class Executor {
 public:
  // Plans the graph. Throws d2s::Error for a node it cannot run (an unknown op or
  // overload, a value used before it is defined). The graph is not needed after.
  explicit Executor(const ir::Graph& graph, ExecOptions options = {});
  ~Executor();
  Executor(Executor&&) noexcept;
  Executor& operator=(Executor&&) noexcept;

  // Runs the graph on values for its inputs (in order); returns its outputs.
  ValueList run(const ValueList& inputs);

  // ExecOptions::check_guards, for the runs after this call.
  void set_check_guards(bool on) { options_.check_guards = on; }

  const ExecStats& stats() const { return stats_; }
  size_t num_slots() const;  // values in the plan (one slot each)
  // Whether the graph calls aten::backward, told while planning: a caller need not
  // walk the graph again to know whether its runs must tape.
  bool calls_backward() const;

 private:
  std::unique_ptr<exec_detail::Plan> plan_;
  std::unique_ptr<exec_detail::Scratch> scratch_;  // the slots, reused by every run
  ExecOptions options_;
  ExecStats stats_;
};

}  // namespace d2s
