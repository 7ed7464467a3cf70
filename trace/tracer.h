// The trace route (contract §2): run the program once on example inputs and record
// each op it runs into a graph, as torch.jit.trace does.
//
//   Program program = Program::load("model.py");
//   TraceOptions opts;                      // opts.run: entry, seed, weights, limits
//   TraceResult r = trace_program(program, {{"x", x}}, opts);
//   std::cout << ir::print_graph(*r.graph);
//
// What the graph holds:
//  * Inputs: the entry's tensor inputs (named by parameter, typed with the exact dtype
//    and shape seen), with guards on also its scalar inputs, in parameter order; then
//    the entry module's parameters by state_dict name (`linear1.weight`), so the same
//    graph runs with other weights.
//  * One node per op the program ran (loops unrolled, calls inlined), with the op's
//    overload and the source range of the expression that made it. Tensors the trace
//    did not see made (module-level tensors, buffers) become tensor constants; Python
//    numbers become constants. Ops on plain Python numbers leave no node. Nodes whose
//    results nothing uses are dropped (as torch.jit.trace's cleanup does), except guards,
//    in-place and random ops.
//  * Sizes stay symbolic while they flow only into ops: `x.view(x.size(0), -1)` keeps
//    aten::size feeding aten::view, and arithmetic on sizes is recorded.
//  * Every Python decision made from a tensor or a size (if/while tests, item(), int(),
//    len(), range(n), indices) is baked into the trace. With guards on, each is also
//    re-checked at run time by a prim::Guard, as are the input shapes and the scalar
//    inputs, so the graph fails (exit 1) on an input that would have gone another way:
//
//      %b : bool = aten::Bool(%3)
//       = prim::Guard[seen=True, expr="x.mean() > 0.5", what="bool"](%b)
//
//    With guards off the graph is the plain torch.jit.trace graph, wrong answers on
//    other inputs included.
//  * Outputs: what the entry returns, as the parse route gives them: one output per
//    item of a returned tuple (tuples inside it as prim::TupleConstruct), none for
//    None. A returned number is a constant, a returned size its graph value.
//
// print() is not recorded (torch.jit.trace drops it); it and every decision, loop and
// call are in the TraceLog (trace_log.h) for `d2s diff`. See docs/tracing.md.
#pragma once

#include <cstdint>
#include <memory>

#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"
#include "trace/interpreter.h"
#include "trace/trace_log.h"

namespace d2s {

struct TraceOptions {
  RunOptions run;      // entry, seed, weights, limits, where print() writes (hooks: unused)
  bool guards = true;  // false: `--no-guards`, the plain torch-style trace
  // The longest trace (graph nodes, constants included) before d2s gives up, so that a
  // long-running loop cannot exhaust memory: `--max-trace-nodes`.
  int64_t max_nodes = 1'000'000;
  // Drop nodes whose results nothing uses (torch.jit.trace does); false keeps every op.
  // A <module> entry (a script, which returns nothing) always keeps every op.
  bool eliminate_dead_code = true;
};

struct TraceResult {
  std::unique_ptr<ir::Graph> graph;  // route "trace"; passes ir::verify()
  IValue eager_output;               // what the run returned (plain values)
  TraceLog log;
};

// A non-empty list or tuple of defined tensors (an LSTM's (h, c)): given to the entry,
// it is one graph input of the trace, unpacked into its tensors, not a baked constant.
bool is_tensor_sequence(const IValue& v);

// Prepares the program (opts.run), then runs its entry on `inputs` with the tracer's
// hooks. Errors of the program, its inputs and the trace limits are d2s::Errors.
TraceResult trace_program(Program& program, const NamedInputs& inputs,
                          const TraceOptions& options = {});

}  // namespace d2s
