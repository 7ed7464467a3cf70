// The trace-vs-parse diff (`d2s diff`, contract §4): what a trace of a model program
// loses compared with its parsed graph, found by aligning the two by source location.
//
//   Program program = Program::load("foo1.py");
//   std::vector<DiffInputSet> sets = {{"foo1.inputs.yaml:2", {{"x", x}, {"y", y}}}};
//   DiffReport report = diff_program(program, sets, DiffOptions{});
//   std::cout << format_diff_text(report);      // or format_diff_json(report)
//
// How it works (docs/diff.md has the user's view):
//  1. Every input set is traced: set 0 with guards (as `d2s trace` writes it; a copy
//     made plain by dropping the guards and what only they used is the torch.jit.trace
//     graph the picture draws), the others without guards. Each trace comes with its
//     TraceLog: each decision, loop, bake and print. The program is lowered once (the
//     parse route), with set 0's shapes as examples.
//  2. Alignment (diff_align.cpp): the parsed graph's If/Loop tree is walked (with an
//     explicit stack) and each prim::If / prim::Loop is matched to what the traces
//     did at its source location, through hash maps keyed by line and column, so the
//     work is linear in graph plus log size.
//  3. Findings (diff_findings.cpp) describe the trace of set 0, the one a user would
//     ship, one per source location, each lossy or info: lost_branch (a side set 0 did
//     not take; another set taking it is the counterexample), unrolled_loop (lossy when
//     the count came from data or a size, or differs between sets), baked_value,
//     dropped_side_effect, shape_specialized (rules at the top of diff_findings.cpp
//     and in docs/diff.md). The rest of the sets make the coverage table.
//  4. Agreement: the guarded trace of set 0 and the parsed graph run on every set and
//     are compared (rtol, atol); a guard that fails is a disagreement. `d2s check`
//     passes when no finding is lossy and every set agrees. The parsed graph failing
//     on a set the program runs on is an error (exit 2), not a disagreement.
//  5. Counterexamples: a given set that goes the lost way is the counterexample, run
//     through the plain trace of set 0 and the parsed graph; for the other lost
//     branches (and loops whose trip count came from data), diff_search.cpp searches
//     for an input of the given shapes that goes the lost way, checked with the eager
//     interpreter's hooks, then run through the plain trace and the parsed graph.
//
// Errors of the program or its inputs (it cannot be traced or lowered) are
// d2s::Errors; a report is produced whenever both routes convert it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/source.h"
#include "core/tensor/ivalue.h"
#include "trace/interpreter.h"
#include "trace/trace_log.h"

namespace d2s::ir {
class Graph;
}

namespace d2s::convert {

// One input set, bound by parameter name, and how the report names it.
struct DiffInputSet {
  std::string label;  // where it comes from: "foo1.inputs.yaml:2" (file and line)
  NamedInputs inputs;
};

struct DiffOptions {
  // Entry, seed, weights, training flag and limits, as for a run; `out` and `hooks`
  // are not used (what the program prints while traced is captured, not shown).
  RunOptions run;
  int64_t max_trace_nodes = 1'000'000;  // per trace (TraceOptions::max_nodes)
  // Run the plain trace of set 0 and the parsed graph on every set and compare.
  bool compare = true;
  // Search counterexamples for lost branches and data-dependent loops.
  bool search = true;
  int max_search_tries = 200;       // candidate inputs per finding
  double max_search_seconds = 2.0;  // wall time per finding
  int max_searches = 10;            // findings searched (the first ones, by line)
  // Two results agree when |a - b| <= atol + rtol * |b| elementwise (NaN equals NaN).
  double rtol = 1e-5;
  double atol = 1e-6;
};

enum class FindingKind {
  LostBranch,
  UnrolledLoop,
  BakedValue,
  DroppedSideEffect,
  ShapeSpecialized
};
const char* finding_kind_name(FindingKind kind);  // "lost_branch", ...

// lossy: the trace gives wrong answers (or misses effects) on some inputs;
// info: same answers, only a bigger graph (a loop with a constant trip count).
enum class Severity { Info, Lossy };
const char* severity_name(Severity severity);  // "info", "lossy"

enum class Arm { Then, Else };
inline const char* arm_name(Arm a) {
  return a == Arm::Then ? "then" : "else";
}

struct Finding {
  FindingKind kind = FindingKind::LostBranch;
  Severity severity = Severity::Lossy;
  SourceRange range;    // the if/elif/for/while keyword, or the expression concerned
  std::string message;  // what happened, in plain words
  std::string fix;      // what to do about it

  // lost_branch
  Arm taken = Arm::Then;
  Arm lost = Arm::Else;
  std::vector<int> lost_lines;  // source lines of the lost side's statements
  bool is_elif = false;
  bool expression = false;  // an `a if c else b` rather than an if statement
  std::string test;         // the condition's text
  // lost_branch and unrolled_loop: a given input set that goes the way the trace of set
  // 0 did not (takes the lost side, needs another trip count): it proves the trace wrong.
  std::optional<size_t> counterexample;
  // unrolled_loop
  int64_t trips = 0;  // in set 0, the traced set (the most, if it ran the loop several times)
  // Per set, the most trips it ran the loop with (nullopt: the set did not reach it).
  std::vector<std::optional<int64_t>> set_trips;
  Provenance source = Provenance::Constant;  // where the trip count came from
  bool is_while = false;
  // baked_value, shape_specialized
  std::string what;                  // the expression (or input) that was baked
  IValue value;                      // the value the trace baked (first set that baked it)
  std::string conversion;            // "item", "int", "bool", "index", "input", ...
  std::vector<std::string> symbols;  // shape_specialized: the parsed graph's dims (x_0)
  // dropped_side_effect
  std::string op;  // "prim::Print", or "prim::RaiseException" for an assert
};

// Which arms of one if each set took.
struct IfCoverage {
  SourceRange range;
  bool is_elif = false;
  bool expression = false;  // `a if c else b`, or an assert
  bool is_assert = false;
  Provenance from = Provenance::Data;
  // Per set: bit 1 the then arm ran, bit 2 the else arm ran; 0 not reached.
  std::vector<uint8_t> arms;
};

struct TripCounts {
  int64_t runs = 0;  // executions of the loop statement (0: not reached)
  int64_t min = 0;
  int64_t max = 0;
};

struct LoopCoverage {
  SourceRange range;
  bool is_while = false;
  Provenance from = Provenance::Constant;
  std::vector<TripCounts> trips;  // per set
};

// The trace of set 0, with its guards (what `d2s trace` writes and `d2s run --mode
// trace` runs), against the parsed graph on one set.
struct Agreement {
  size_t set = 0;
  bool agrees = true;
  bool guard_failed = false;  // the trace stopped at a guard (exit 1 from `d2s run`)
  std::string detail;         // the first difference, or the guard that failed
  int line = 0;               // where the trace stopped, when it did (the guard's line)
};

// The verdict of a report: `lossy` when some finding is lossy; else `disagrees` when
// the guarded trace of set 0 does not run or does not agree with the parsed graph on
// some set; else `trace-safe`. `d2s check` passes exactly on `trace-safe`.
enum class Verdict { TraceSafe, Lossy, Disagrees };
const char* verdict_name(Verdict verdict);  // "trace-safe", "lossy", "disagrees"

// An input that goes the way no given set went, and what each graph makes of it.
struct Counterexample {
  SourceRange range;  // the finding's location
  FindingKind kind = FindingKind::LostBranch;
  bool found = false;    // an input going the lost way was found
  bool differs = false;  // and the two graphs disagree on it
  bool given = false;    // it is a given input set (base_set), run through the trace of set 0
  int tries = 0;         // candidates searched (0 for a given set)
  size_t base_set = 0;   // the set it is or was derived from (that set's trace is the one run)
  std::string how;       // "prev_h × -1", "random draw of x, y", "as given"
  NamedInputs inputs;    // the whole input set
  std::vector<std::string> changed;  // names of the inputs that differ from the base set
  ValueList traced;                  // outputs of the plain trace of base_set
  ValueList parsed;                  // outputs of the parsed graph
  std::string traced_error;          // when the trace could not run on it
  std::string detail;                // the first difference
};

struct DiffReport {
  std::shared_ptr<const SourceFile> source;  // the model program
  std::string entry;                         // "foo1", "DynamicModel.forward"
  std::vector<std::string> output_names;     // the parsed graph's outputs ("next_h", "loss")
  std::vector<std::string> set_labels;
  bool trace_safe = true;  // no finding is lossy
  struct {
    size_t nodes = 0, ifs = 0, loops = 0;
  } parsed;
  struct {
    size_t nodes = 0;          // the plain trace of set 0
    size_t guarded_nodes = 0;  // the same with guards (what `d2s trace` writes)
    size_t guards = 0;
  } traced;
  std::vector<Finding> findings;  // by line, column
  std::vector<IfCoverage> ifs;    // by line, column
  std::vector<LoopCoverage> loops;
  std::vector<Agreement> agreement;  // per set; empty when not compared
  std::vector<Counterexample> counterexamples;
  // Both graphs, for pictures (viz/diff_picture.h): the parsed graph and the plain
  // trace of set 0, the one compared. Shared, so that a report stays copyable.
  std::shared_ptr<const ir::Graph> parsed_graph;
  std::shared_ptr<const ir::Graph> traced_graph;

  size_t lossy_count() const;
  bool agrees() const;  // the guarded trace of set 0 runs and agrees on every compared set
  Verdict verdict() const;
};

// Traces every set, lowers the program, aligns, finds, compares and searches.
// `sets` must not be empty. Throws d2s::Error when a route cannot convert the program.
DiffReport diff_program(Program& program, const std::vector<DiffInputSet>& sets,
                        const DiffOptions& options = {});

// The report for people (diff_report_text.cpp): a verdict line, then per finding
// `file:line`, the source line, what happened and a fix, then the coverage table.
std::string format_diff_text(const DiffReport& report);
// The report for tools (diff_report_json.cpp), contract §4; fields in docs/diff.md.
std::string format_diff_json(const DiffReport& report);

}  // namespace d2s::convert
