// Internals of the trace-vs-parse diff (convert/diff.h), shared by its files:
// diff_align.cpp (indexes and alignment), diff_findings.cpp, diff_run.cpp (running
// graphs, comparing results), diff_search.cpp (counterexamples).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "convert/diff.h"
#include "convert/lower.h"
#include "core/ir/ir.h"
#include "parse/ast.h"
#include "trace/trace_log.h"

namespace d2s::convert {
class JsonWriter;
}

namespace d2s::convert::diff_detail {

// A source position as one hashable key (line and column are small positive ints).
using LocKey = uint64_t;
inline LocKey loc_key(int line, int col) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(line)) << 32) | static_cast<uint32_t>(col);
}
inline LocKey loc_key(const SourceRange& r) {
  return loc_key(r.line, r.col);
}

inline constexpr uint8_t kThen = 1;
inline constexpr uint8_t kElse = 2;

// ------------------------------------------------------------------ trace logs

// What the traces did at one `if` in one set.
struct IfFacts {
  uint8_t arms = 0;  // kThen | kElse
  Provenance from = Provenance::Constant;
  bool is_elif = false;
  SourceRange range;  // the keyword (also set when arms stays 0)
  SourceRange test_range;
};

struct LoopFacts {
  TripCounts trips;
  Provenance from = Provenance::Constant;
  bool is_while = false;
  SourceRange range;
};

// The TraceLogs of all sets by location (built in one pass over each log).
struct TraceIndex {
  size_t num_sets = 0;
  std::unordered_map<LocKey, std::vector<IfFacts>> ifs;      // per set
  std::unordered_map<LocKey, std::vector<LoopFacts>> loops;  // per set
  // Truth values taken outside if/while statements (`a if c else b`, assert, `and`)
  // by line, per set: the decisions of expression-level prim::Ifs.
  std::unordered_map<int, std::vector<IfFacts>> bool_lines;
  // Lines holding an if/elif/while keyword or test, or a for header: conversions
  // there are that statement's decision, reported with it.
  std::unordered_set<int> statement_lines;
  std::unordered_set<int> loop_lines;  // for/while keywords and headers
};

TraceIndex index_traces(const std::vector<const TraceLog*>& logs);

// ------------------------------------------------------------------ the AST

struct AstIndex {
  std::unordered_map<LocKey, const ast::If*> ifs;  // by keyword (elifs included)
  // The statement list holding each if and its position; an elif's entry is its
  // owner's (the rest after an elif is the rest after the whole if chain).
  struct Place {
    const ast::Body* body = nullptr;
    size_t index = 0;
  };
  std::unordered_map<const ast::If*, Place> place;
  std::unordered_set<int> assert_lines;  // lines where an assert statement starts
  // The lines each for/while body spans (its first and last statement's first line),
  // by the loop's keyword.
  std::unordered_map<LocKey, std::pair<int, int>> loop_bodies;
};

AstIndex index_ast(const ast::Module& module);

// Lines of the statements (nested ones included) of the `lost` arm of `stmt`; when the
// other arm always leaves the block (return, break, continue), the statements after
// the if are lost too: the trace left with the taken arm.
std::vector<int> lost_lines(const AstIndex& index, const ast::If& stmt, Arm lost);

// ------------------------------------------------------------------ alignment

struct AlignedIf {
  SourceRange range;  // the keyword, or the expression for an expression-level if
  bool is_elif = false;
  bool expression = false;    // matched through truth-value conversions, not an if statement
  std::string test;           // the condition's text (expression-level: the conversion's)
  std::vector<uint8_t> arms;  // per set
  Provenance from = Provenance::Constant;
  bool from_input = false;             // decided by a scalar input the trace baked
  std::vector<const ir::Node*> nodes;  // the parsed prim::Ifs at this location
};

struct AlignedLoop {
  SourceRange range;
  bool is_while = false;
  std::vector<TripCounts> trips;  // per set
  Provenance from = Provenance::Constant;
  bool from_input = false;  // the trip count depends on a scalar input
  bool may_exit = false;    // the parsed loop's continue condition is not constant true
  Provenance body_from = Provenance::Constant;  // of the decisions made in its body
  std::vector<const ir::Node*> nodes;
};

struct Alignment {
  std::vector<AlignedIf> ifs;  // in first-seen (walk) order
  std::vector<AlignedLoop> loops;
  size_t parsed_ifs = 0;  // prim::Ifs in the parsed graph, exit guards excluded
  size_t parsed_loops = 0;
};

// Matches the parsed graph with the traces. Trace decisions the parsed graph has no
// If for (`if c: break` becomes the loop's stop flag) are aligned from the log alone;
// a loop that may stop early takes the provenance of the decisions in its body.
Alignment align(const ir::Graph& parsed, const TraceIndex& index, const AstIndex& ast);

// True when `v` is computed (at any depth, through blocks) from a non-tensor input of
// the graph: a scalar input the trace bakes as a constant.
bool depends_on_scalar_input(const ir::Value* v);

// ------------------------------------------------------------------ findings

struct FindingInputs {
  const ir::Graph* parsed = nullptr;
  const LoweredGraph* lowered = nullptr;
  const std::vector<const TraceLog*>* logs = nullptr;
  const TraceIndex* traces = nullptr;
  const AstIndex* ast = nullptr;
  const Alignment* alignment = nullptr;
  const EntryInfo* entry = nullptr;
  const std::vector<DiffInputSet>* sets = nullptr;
};

std::vector<Finding> make_findings(const FindingInputs& in);

// The source text of a one-line range ("" when unknown).
std::string range_text(const SourceRange& r);
// "11-12", "11, 13-14": lines for messages.
std::string format_lines(const std::vector<int>& lines);

// ------------------------------------------------------------------ running

// Runs one graph (either route's) on named inputs: arguments by name (a parsed
// graph's missing ones from their defaults), parameters by state_dict name. Each run
// works on copies and a fresh generator, so in-place ops change nothing given.
class GraphRun {
 public:
  GraphRun(const ir::Graph& graph, const LoweredGraph& lowered, const DiffOptions& options);
  ~GraphRun();
  GraphRun(GraphRun&&) noexcept;
  // Outputs in order. Throws d2s::Error when the graph cannot run on them.
  ValueList run(const NamedInputs& inputs) const;
  // ExecOptions::check_guards for the runs after this call: false runs a guarded trace
  // as its plain copy computes.
  void set_check_guards(bool on);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Compares results; on a difference, `why` says where, naming outputs by `names`
// when given ("next_h, element 16: -0.18 vs 0.99 (|diff| 1.18)").
bool values_close(const ValueList& a, const ValueList& b, double rtol, double atol,
                  std::string* why, const std::vector<std::string>* names = nullptr);

// Copies an input set, tensors cloned (eager runs update tensors in place).
NamedInputs clone_inputs(const NamedInputs& inputs);

// ------------------------------------------------------------------ reports

// One report as a JSON object (diff_report_json.cpp), for diff and check.
void write_report_json(JsonWriter& w, const DiffReport& report);
// A value, short enough for a line of text: tensors longer than a few numbers are
// cut (`tensor([...]) [1, 20]: -0.235, -1.576, ...`).
std::string short_value(const IValue& v);

// ------------------------------------------------------------------ search

struct SearchContext {
  Program* program = nullptr;
  const DiffOptions* options = nullptr;
  const std::vector<DiffInputSet>* sets = nullptr;
  const std::vector<const GraphRun*>* traces = nullptr;  // the plain trace of each set
  const GraphRun* parsed = nullptr;
  const std::vector<std::string>* output_names = nullptr;
};

// For a lost branch or a data-dependent loop: an input that goes another way.
Counterexample search_counterexample(const SearchContext& ctx, const Finding& finding);
// For a finding whose counterexample is a given set: that set run through the plain
// trace of set 0 (the trace the finding is about) and the parsed graph.
Counterexample given_counterexample(const SearchContext& ctx, const Finding& finding);

}  // namespace d2s::convert::diff_detail
