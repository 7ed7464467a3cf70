// The pass driver: every graph pass is registered once, by name, with a one-line
// description, and one driver runs a pipeline of them (LLVM's and TorchScript's
// pass managers in miniature). run_default_passes (passes.h) is the default
// pipeline with the process-wide options.
//
//   constant_fold, eliminate_dead_code   together to a fixpoint (at most max_rounds
//                                         rounds: folding can make code dead, and
//                                         removing dead code can make a branch foldable)
//   infer_shapes                          once, on the graph they leave
//
// Options (the CLI's --print-ir-after, --verify-each, --pass-stats; docs/cli.md):
//
//  * print_ir_after: a pass name or "all": after each run of that pass the graph is
//    printed (core/ir/printer.h) after a header line naming the pass and the round.
//  * verify_each: the verifier (core/ir/verify.h) runs on the graph as lowering left
//    it and after every pass; a malformed graph is an internal error naming the pass
//    that broke it. On in debug builds, and when the environment variable
//    D2S_VERIFY_EACH is set to 1 (the test suite sets it: docs/testing.md).
//  * stats: per pass, its runs, the runs that changed the graph, the nodes before its
//    first and after its last run, and the nodes its runs removed and added in all —
//    counted with one iterative walk before and after each run, only when asked — and
//    the values it folded to constants (count_folded, as MLIR's pass statistics). The
//    table goes to the stream after the pipeline ran.
//
// A fixpoint stage that still changes the graph in its last allowed round is
// reported, never silent: a warning line on the stream (stderr by default), and
// fixpoint_limit_hit() for callers.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/ir.h"

namespace d2s::convert {

// A pass returns whether it changed the graph.
using PassFn = std::function<bool(ir::Graph&)>;

struct PassInfo {
  std::string name;
  PassFn run;
  std::string description;  // one line, for --help and error hints
  // The pass repeats itself until it changes nothing, so a second run on its own
  // output is a no-op: a fixpoint stage skips it when no pass changed the graph since
  // its last run (constant folding and dead-code elimination, which would otherwise
  // each take a whole walk per round to find nothing). Otherwise it runs every round.
  bool own_fixpoint = false;
};

// The registered passes, in the order the default pipeline runs them.
const std::vector<PassInfo>& registered_passes();
// The registered pass called `name`, or null.
const PassInfo* find_pass(std::string_view name);
// A value of --print-ir-after: a registered pass name or "all". Anything else throws
// d2s::Error "unknown pass 'x'" (exit 2) with a hint listing the names.
void check_pass_name(const std::string& name);

struct PassOptions {
  std::string print_ir_after;  // empty: print nothing
  bool verify_each = false;
  bool stats = false;
  int max_rounds = 20;          // of a fixpoint stage
  std::ostream* out = nullptr;  // IR dumps, statistics, warnings; null: std::cerr
};

// The options run_default_passes uses: one process-wide setting that the CLI sets once
// before a command runs (as core/tensor/tensor.h's limits), so every route that lowers a
// graph obeys it. Before that: verify_each in debug builds or with D2S_VERIFY_EACH=1.
const PassOptions& default_pass_options();
void set_default_pass_options(const PassOptions& options);

struct PassStats {
  std::string name;
  size_t runs = 0;
  size_t changed = 0;       // runs that reported a change
  size_t nodes_before = 0;  // before its first run
  size_t nodes_after = 0;   // after its last run
  size_t removed = 0;       // over all runs: nodes fewer after a run than before it
  size_t added = 0;         // over all runs: nodes more after a run than before it
  size_t folded = 0;        // over all runs: values the pass replaced by a constant
};

// Called by a pass each time it replaces a value by a constant (or a branch by its
// taken arm): counted into the running pass's PassStats::folded when statistics are
// on, nothing otherwise.
void count_folded(size_t n = 1);

class PassManager {
 public:
  explicit PassManager(PassOptions options = default_pass_options());

  // Appends a stage: `passes` in order, round after round, until a round changes
  // nothing or max_rounds rounds ran.
  PassManager& add_fixpoint(std::vector<PassInfo> passes);
  // Appends a stage that runs `pass` once.
  PassManager& add_once(PassInfo pass);

  // Runs every stage on `graph`. Throws d2s::Error when verify_each finds the graph
  // malformed, naming the pass (or "lowering" for the graph as given).
  void run(ir::Graph& graph);

  // One row per pass of the pipeline, in pipeline order (after run()).
  const std::vector<PassStats>& stats() const { return stats_; }
  // Whether a fixpoint stage stopped at max_rounds while still changing the graph.
  bool fixpoint_limit_hit() const { return limit_hit_; }
  // The statistics as a table, one line per pass after a header line.
  std::string stats_table() const;

 private:
  struct Stage {
    std::vector<PassInfo> passes;
    bool fixpoint;
  };
  bool run_pass(ir::Graph& graph, const PassInfo& pass, size_t stat, int round);
  void verify(const ir::Graph& graph, const std::string& after) const;
  std::ostream& out() const;

  PassOptions options_;
  std::vector<Stage> stages_;
  std::vector<PassStats> stats_;
  bool limit_hit_ = false;
  int rounds_ = 0;  // of the last fixpoint stage, for the table
};

// The default pipeline (see the top of this file) with `options`.
PassManager default_pipeline(const PassOptions& options = default_pass_options());

}  // namespace d2s::convert
