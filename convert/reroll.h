// Loop re-rolling of traces (`d2s trace --reroll`, `d2s code --route trace --reroll`,
// docs/code.md): the repetitions of an unrolled loop folded back into a prim::Loop.
//
//   TraceResult r = trace_program(program, inputs, opts);
//   RerollReport report = convert::reroll_loops(*r.graph, r.log);
//
// For each loop the trace log saw run at least twice, innermost first, the pass looks
// in the trace's top block for a run of repetitions of one block of nodes that came
// from that loop: the same ops with the same source locations and attributes, one
// repetition after the other (found from the nodes on the loop's lines or on the
// lines of the functions called from them), where each repetition reads only values of its own,
// values of the repetition before it (the carried values) and values from before the
// run that every repetition reads alike. Constants must be equal in every
// repetition, or ints that step evenly (the loop index: `s += i` traces to constants
// 0, 1, 2, ...), which become `start + step * i`. Only the last repetition's carried
// values may be read after the run. Such a run of R repetitions becomes
//
//   %out... = prim::Loop(R, True, %initial...)     # R: the traced trip count
//     block0(%i, %carried...): <one repetition> -> (True, %next...)
//
// and the loop's provenance (constant, shape, data) is taken from the trace log.
// Guards stay where the trace put them: a trip count that came from a shape or from
// data was guarded before the loop (`range(int(t))`, a scalar input) or in every
// repetition (a `while` test), and still is. A run that does not fit (values from
// two repetitions back, a different op in one repetition, carried values whose types
// change) is left unrolled, and the report says why.
//
// The pass iterates; it never recurses along the trace, so a 100,000-node trace is
// fine. Folded loops are innermost loops: an outer loop whose repetitions hold a
// folded loop stays unrolled around it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "trace/trace_log.h"

namespace d2s::convert {

struct RerolledLoop {
  SourceRange loop;   // the `for` / `while` keyword
  int64_t trips = 0;  // repetitions folded (the traced trip count)
  Provenance from = Provenance::Constant;
  size_t nodes_before = 0;  // nodes of the unrolled run
  size_t nodes_after = 0;   // nodes of the loop (itself and its body)
};

struct RerollReport {
  std::vector<RerolledLoop> folded;
  // Loops of the log left unrolled: "rnn.py:7: <why>".
  std::vector<std::string> kept;
};

// Folds the unrolled loops of a trace (route "trace"); the graph still passes
// ir::verify and computes the same outputs.
RerollReport reroll_loops(ir::Graph& graph, const TraceLog& log);

}  // namespace d2s::convert
