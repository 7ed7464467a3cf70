#include "convert/pass_manager.h"

#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "convert/passes.h"
#include "core/base/error.h"
#include "core/ir/printer.h"
#include "core/ir/verify.h"

namespace d2s::convert {

namespace {

bool verify_each_by_default() {
#ifndef NDEBUG
  return true;
#else
  // The test suite's ctest entries set it (CMakeLists.txt), so every pass of every
  // test is followed by the verifier in Release builds too.
  const char* env = std::getenv("D2S_VERIFY_EACH");
  return env != nullptr && std::string(env) == "1";
#endif
}

PassOptions& process_options() {
  static PassOptions options = [] {
    PassOptions o;
    o.verify_each = verify_each_by_default();
    return o;
  }();
  return options;
}

std::string pass_names() {
  std::string out;
  for (const PassInfo& p : registered_passes()) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

}  // namespace

const std::vector<PassInfo>& registered_passes() {
  static const std::vector<PassInfo> passes = {
      {"constant_fold", constant_fold,
       "pure scalar code on constants, constant-condition If/Loop, tuple unpacking of "
       "tuples built in place",
       /*own_fixpoint=*/true},
      {"eliminate_dead_code", eliminate_dead_code,
       "unused nodes without effects, unused If outputs and loop-carried values",
       /*own_fixpoint=*/true},
      {"infer_shapes", infer_shapes, "dtypes and shapes through the graph by per-op rules"},
  };
  return passes;
}

const PassInfo* find_pass(std::string_view name) {
  for (const PassInfo& p : registered_passes()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

void check_pass_name(const std::string& name) {
  if (name == "all" || find_pass(name)) return;
  throw Error("unknown pass '" + name + "'", SourceRange(),
              "the passes are " + pass_names() + " (or all)");
}

const PassOptions& default_pass_options() {
  return process_options();
}

void set_default_pass_options(const PassOptions& options) {
  process_options() = options;
}

PassManager::PassManager(PassOptions options) : options_(std::move(options)) {}

PassManager& PassManager::add_fixpoint(std::vector<PassInfo> passes) {
  stages_.push_back(Stage{std::move(passes), true});
  return *this;
}

PassManager& PassManager::add_once(PassInfo pass) {
  stages_.push_back(Stage{{std::move(pass)}, false});
  return *this;
}

std::ostream& PassManager::out() const {
  return options_.out ? *options_.out : std::cerr;
}

void PassManager::verify(const ir::Graph& graph, const std::string& after) const {
  try {
    ir::verify(graph);
  } catch (const Error& e) {
    const std::string what = after == "lowering" ? "lowering" : "the " + after + " pass";
    throw Error("internal error: the graph is malformed after " + what + ": " + e.message(),
                e.range(), e.hint());
  }
}

namespace {
// The statistics of the pass running on this thread, when they are asked for.
thread_local PassStats* running_stats = nullptr;

// Sets running_stats for one pass run, and restores it however the run ends.
class RunningStats {
 public:
  explicit RunningStats(PassStats* s) : saved_(running_stats) { running_stats = s; }
  ~RunningStats() { running_stats = saved_; }
  RunningStats(const RunningStats&) = delete;
  RunningStats& operator=(const RunningStats&) = delete;

 private:
  PassStats* saved_;
};
}  // namespace

void count_folded(size_t n) {
  if (running_stats) running_stats->folded += n;
}

bool PassManager::run_pass(ir::Graph& graph, const PassInfo& pass, size_t stat, int round) {
  PassStats& s = stats_[stat];
  const size_t before = options_.stats ? graph.node_count() : 0;
  bool changed;
  {
    RunningStats counting(options_.stats ? &s : nullptr);
    changed = pass.run(graph);
  }
  if (options_.stats) {
    const size_t after = graph.node_count();
    if (s.runs == 0) s.nodes_before = before;
    s.nodes_after = after;
    if (after < before) s.removed += before - after;
    if (after > before) s.added += after - before;
  }
  ++s.runs;
  if (changed) ++s.changed;
  if (options_.verify_each) verify(graph, pass.name);
  if (options_.print_ir_after == "all" || options_.print_ir_after == pass.name) {
    out() << "*** IR after " << pass.name << " (round " << round
          << (changed ? ", changed" : ", unchanged") << ") ***\n"
          << ir::print_graph(graph) << std::flush;
  }
  return changed;
}

void PassManager::run(ir::Graph& graph) {
  stats_.clear();
  limit_hit_ = false;
  for (const Stage& stage : stages_) {
    for (const PassInfo& p : stage.passes) stats_.push_back(PassStats{p.name});
  }
  if (options_.verify_each) verify(graph, "lowering");
  size_t row = 0;
  for (const Stage& stage : stages_) {
    if (!stage.fixpoint) {
      run_pass(graph, stage.passes[0], row++, 1);
      continue;
    }
    // `epoch` counts the changes so far; a pass that runs to its own fixpoint is
    // skipped when none happened since its last run. The stage ends after a round
    // that changed nothing.
    size_t epoch = 0;
    std::vector<size_t> seen(stage.passes.size(), SIZE_MAX);  // epoch after the last run
    bool changed = true;
    int round = 0;
    while (changed && round < options_.max_rounds) {
      changed = false;
      ++round;
      for (size_t i = 0; i < stage.passes.size(); ++i) {
        if (stage.passes[i].own_fixpoint && seen[i] == epoch) continue;
        if (run_pass(graph, stage.passes[i], row + i, round)) {
          ++epoch;
          changed = true;
        }
        seen[i] = epoch;
      }
    }
    rounds_ = round;
    if (changed) {
      limit_hit_ = true;
      std::string names;
      for (const PassInfo& p : stage.passes) names += (names.empty() ? "" : ", ") + p.name;
      out() << "warning: the passes " << names << " still changed the graph in round " << round
            << ", the last one allowed: they stopped short of a fixpoint\n"
            << std::flush;
    }
    row += stage.passes.size();
  }
  if (options_.stats) out() << stats_table() << std::flush;
}

std::string PassManager::stats_table() const {
  std::ostringstream s;
  s << "pass statistics (" << rounds_ << (rounds_ == 1 ? " round" : " rounds") << " to the fixpoint"
    << (limit_hit_ ? ", limit hit" : "") << "):\n";
  s << std::left << std::setw(21) << "  pass" << std::right << std::setw(6) << "runs"
    << std::setw(9) << "changed" << std::setw(14) << "nodes before" << std::setw(13)
    << "nodes after" << std::setw(9) << "removed" << std::setw(7) << "added" << std::setw(8)
    << "folded"
    << "\n";
  for (const PassStats& p : stats_) {
    s << "  " << std::left << std::setw(19) << p.name << std::right << std::setw(6) << p.runs
      << std::setw(9) << p.changed << std::setw(14) << p.nodes_before << std::setw(13)
      << p.nodes_after << std::setw(9) << p.removed << std::setw(7) << p.added << std::setw(8)
      << p.folded << "\n";
  }
  return s.str();
}

PassManager default_pipeline(const PassOptions& options) {
  PassManager pm(options);
  pm.add_fixpoint({*find_pass("constant_fold"), *find_pass("eliminate_dead_code")});
  pm.add_once(*find_pass("infer_shapes"));
  return pm;
}

void run_default_passes(ir::Graph& graph) {
  default_pipeline().run(graph);
}

}  // namespace d2s::convert
