// What a trace saw besides the ops it recorded: every Python decision and side effect
// that a traced graph cannot show, for `d2s diff` (contract §4) to turn into findings.
//
// The log is plain data, independent of the Program and its AST: it outlives both.
// Every entry has a `seq` number giving the order of all events of the trace; a loop
// is logged when it finishes, so its seq comes after the events of its body.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/source.h"
#include "core/tensor/ivalue.h"
#include "trace/interpreter.h"

namespace d2s {

// Where a Python value that steered the trace came from. Ordered: a value computed
// from several sources has the largest of theirs (data beats shape beats constant).
enum class Provenance : uint8_t {
  Constant,  // plain Python values only (literals, module attributes): same on every input
  Shape,     // tensor sizes: same for inputs of the traced shapes
  Data,      // tensor contents: may differ on every input
};
inline Provenance combine(Provenance a, Provenance b) {
  return a > b ? a : b;
}
inline const char* provenance_name(Provenance p) {
  return p == Provenance::Constant ? "constant" : p == Provenance::Shape ? "shape" : "data";
}

// What kind of value a conversion turned into a Python value.
enum class ConversionSource : uint8_t {
  Tensor,    // a tensor (its truth value, item(), int(), len(), ...)
  Symbolic,  // a size the trace kept symbolic (x.size(0), and arithmetic on it)
  Baked,     // a number already baked by an earlier conversion (n = int(t); range(n)):
             // not guarded again, the earlier conversion's guard covers it
};
inline const char* conversion_source_name(ConversionSource s) {
  return s == ConversionSource::Tensor     ? "tensor"
         : s == ConversionSource::Symbolic ? "symbolic"
                                           : "baked";
}

// A tensor-derived value became a Python value (InterpreterHooks::to_python).
struct TraceConversion {
  int64_t seq = 0;
  PyConversion kind = PyConversion::Bool;  // py_conversion_name(): "bool", "item", "range", ...
  std::string expr;                        // the expression's source text
  SourceRange range;                       // the expression
  IValue seen;                             // the Python value the trace continued with
  ConversionSource source = ConversionSource::Tensor;
  Provenance from = Provenance::Data;  // Shape for sizes and len(), Data for tensor contents
  bool guarded = false;                // a prim::Guard re-checks it when the graph runs
};

// An executed `if` or `elif` (each elif is its own entry).
struct TraceIf {
  int64_t seq = 0;
  SourceRange range;       // the `if` / `elif` keyword
  SourceRange test_range;  // its condition
  bool is_elif = false;
  bool taken = false;  // true: the body ran; false: the else arm (or nothing)
  // What the condition came from; Constant when no tensor-derived value was involved
  // (`if self.training:`), a decision both routes make at conversion time.
  Provenance from = Provenance::Constant;
};

// An executed `for` or `while`, unrolled by the trace.
struct TraceLoop {
  int64_t seq = 0;
  SourceRange range;         // the `for` / `while` keyword
  SourceRange header_range;  // the iterable of a for, the condition of a while
  bool is_while = false;
  int64_t trips = 0;  // executions of the body (also when it left by break or return)
  // What the trip count came from: Constant for `range(10)` or a Python list, Shape for
  // `range(x.size(0))` / `for row in x`, Data for `range(int(t))` or `while t > 0`.
  Provenance from = Provenance::Constant;
};

// A print() the trace dropped (torch.jit.trace records no prints).
struct TracePrint {
  int64_t seq = 0;
  SourceRange range;  // the print call
  std::string text;   // what it wrote, end included
};

// A user function or method called while tracing (inlined into the trace).
struct TraceCall {
  int64_t seq = 0;
  std::string name;        // as the program names it: "helper", "Model.forward"
  SourceRange call_range;  // the call (the entry's own def for the entry)
  SourceRange def_range;   // the function's name in its def
  int depth = 0;           // 0 for the entry, 1 for what it calls, ...
};

struct TraceLog {
  std::vector<TraceConversion> conversions;
  std::vector<TraceIf> ifs;
  std::vector<TraceLoop> loops;
  std::vector<TracePrint> prints;
  std::vector<TraceCall> calls;
  int64_t events = 0;  // seq numbers handed out so far
  int64_t guards = 0;  // prim::Guard nodes in the graph (input and shape guards included)
};

}  // namespace d2s
