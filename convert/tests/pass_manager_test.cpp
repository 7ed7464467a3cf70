// The pass driver (convert/pass_manager.h): the order it runs passes in, the fixpoint
// limit reported, --verify-each naming the pass that broke the graph, the statistics
// and --print-ir-after's dumps.
#include "convert/pass_manager.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "convert/passes.h"
#include "core/base/error.h"
#include "core/ir/printer.h"

namespace d2s::convert {
namespace {

using ir::Type;

const SourceRange kAt(nullptr, 1, 1);

// x * (2 + 3), then an unused 7 * 7: folding makes two constants and leaves the mul;
// dead-code elimination then drops what nothing reads.
void build(ir::Graph& g) {
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  auto op = [&g](const char* kind, const char* overload, std::vector<ir::Value*> in, Type t) {
    ir::Node* n = g.insert(kind, in, 1, kAt);
    n->set_overload(overload);
    n->output()->set_type(std::move(t));
    return n->output();
  };
  ir::Value* sum =
      op("aten::add", "int",
         {g.insert_constant(IValue(int64_t{2}), kAt), g.insert_constant(IValue(int64_t{3}), kAt)},
         Type::of_int());
  ir::Value* seven = g.insert_constant(IValue(int64_t{7}), kAt);
  op("aten::mul", "int", {seven, seven}, Type::of_int());
  g.register_output(op("aten::mul", "Tensor", {x, sum}, Type::tensor(DType::Float32)));
}

PassInfo recording(const std::string& name, std::vector<std::string>* log, bool changes) {
  return PassInfo{name,
                  [name, log, changes](ir::Graph&) {
                    log->push_back(name);
                    return changes;
                  },
                  "records its runs"};
}

PassOptions quiet(std::ostream* out) {
  PassOptions o;
  o.out = out;
  return o;
}

TEST(PassManager, RegisteredPassesInPipelineOrder) {
  std::vector<std::string> names;
  for (const PassInfo& p : registered_passes()) {
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
    EXPECT_EQ(p.description.find('\n'), std::string::npos) << p.name;
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"constant_fold", "eliminate_dead_code", "infer_shapes"}));
  EXPECT_EQ(find_pass("infer_shapes")->name, "infer_shapes");
  EXPECT_EQ(find_pass("cse"), nullptr);
}

TEST(PassManager, UnknownPassNameIsAnErrorListingTheNames) {
  EXPECT_NO_THROW(check_pass_name("all"));
  EXPECT_NO_THROW(check_pass_name("constant_fold"));
  try {
    check_pass_name("constant-fold");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "unknown pass 'constant-fold'");
    EXPECT_EQ(e.hint(), "the passes are constant_fold, eliminate_dead_code, infer_shapes (or all)");
    EXPECT_EQ(e.exit_code(), 2);
  }
}

TEST(PassManager, FixpointStageThenOnce) {
  // a changes the graph on its first run only, b never. Neither declared to run to its
  // own fixpoint: both run in every round until one changes nothing. c runs once after.
  std::vector<std::string> log;
  int a_runs = 0;
  PassInfo a{"a",
             [&](ir::Graph&) {
               log.push_back("a");
               return a_runs++ == 0;
             },
             ""};
  std::ostringstream out;
  ir::Graph g;
  {
    PassManager pm(quiet(&out));
    pm.add_fixpoint({a, recording("b", &log, false)}).add_once(recording("c", &log, false));
    pm.run(g);
    EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "a", "b", "c"}));
    EXPECT_FALSE(pm.fixpoint_limit_hit());
  }
  EXPECT_EQ(out.str(), "");  // nothing asked, nothing printed

  // Declared to run to their own fixpoints: round 2 would run a and b on a graph that
  // changed only through a's own run, so both are skipped and the stage ends.
  log.clear();
  a_runs = 0;
  a.own_fixpoint = true;
  PassInfo b = recording("b", &log, false);
  b.own_fixpoint = true;
  {
    PassManager pm(quiet(&out));
    pm.add_fixpoint({a, b}).add_once(recording("c", &log, false));
    pm.run(g);
    EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "c"}));
  }

  // b changes the graph in round 1: a runs again in round 2 (a change since its run),
  // b does not (no change since its own run).
  log.clear();
  int b_runs = 0;
  PassInfo b2{"b",
              [&](ir::Graph&) {
                log.push_back("b");
                return b_runs++ == 0;
              },
              "", /*own_fixpoint=*/true};
  PassManager pm2(quiet(&out));
  pm2.add_fixpoint({a, b2});
  pm2.run(g);
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "a"}));
}

TEST(PassManager, FixpointLimitIsReported) {
  std::vector<std::string> log;
  std::ostringstream out;
  PassOptions o = quiet(&out);
  o.max_rounds = 3;
  o.stats = true;
  PassManager pm(o);
  pm.add_fixpoint({recording("always", &log, true), recording("never", &log, false)});
  ir::Graph g;
  pm.run(g);
  EXPECT_EQ(log.size(), 6u);  // both, three rounds
  EXPECT_TRUE(pm.fixpoint_limit_hit());
  EXPECT_NE(out.str().find("warning: the passes always, never still changed the graph in round "
                           "3, the last one allowed: they stopped short of a fixpoint\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("(3 rounds to the fixpoint, limit hit)"), std::string::npos)
      << out.str();
  EXPECT_EQ(pm.stats()[0].runs, 3u);
  EXPECT_EQ(pm.stats()[0].changed, 3u);
  EXPECT_EQ(pm.stats()[1].changed, 0u);
}

TEST(PassManager, VerifyEachNamesTheBrokenPass) {
  PassInfo breaks{"breaks",
                  [](ir::Graph& g) {
                    // No source location: invariant 3 of the verifier.
                    g.insert_constant(IValue(int64_t{1}), SourceRange());
                    return true;
                  },
                  "makes a node without a location"};
  std::vector<std::string> log;
  std::ostringstream out;
  PassOptions o = quiet(&out);
  o.verify_each = true;
  PassManager pm(o);
  pm.add_once(recording("fine", &log, false))
      .add_once(breaks)
      .add_once(recording("x", &log, false));
  ir::Graph g;
  build(g);
  try {
    pm.run(g);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(
        e.message().rfind("internal error: the graph is malformed after the breaks pass: ", 0), 0u)
        << e.message();
  }
  EXPECT_EQ(log, (std::vector<std::string>{"fine"}));  // stopped at the broken graph

  // Without verify_each the same pipeline runs to the end.
  log.clear();
  o.verify_each = false;
  PassManager lax(o);
  lax.add_once(breaks).add_once(recording("x", &log, false));
  ir::Graph g2;
  build(g2);
  EXPECT_NO_THROW(lax.run(g2));
  EXPECT_EQ(log, (std::vector<std::string>{"x"}));
}

TEST(PassManager, VerifyEachChecksTheGraphAsGiven) {
  std::ostringstream out;
  PassOptions o = quiet(&out);
  o.verify_each = true;
  PassManager pm(o);
  ir::Graph g;
  g.insert_constant(IValue(int64_t{1}), SourceRange());
  try {
    pm.run(g);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message().rfind("internal error: the graph is malformed after lowering: ", 0), 0u)
        << e.message();
  }
}

TEST(PassManager, StatisticsOfTheDefaultPipeline) {
  std::ostringstream out;
  PassOptions o = quiet(&out);
  o.stats = true;
  PassManager pm = default_pipeline(o);
  ir::Graph g;
  build(g);
  ASSERT_EQ(g.node_count(), 6u);
  pm.run(g);
  // Folding puts 5 for 2 + 3 and 49 for 7 * 7, leaving their unused inputs: 6 → 6
  // nodes, a change. Dead-code elimination drops 2, 3, 7 and 49: 6 → 2. Round 2 runs
  // folding again (a change since its run), which finds nothing; dead-code elimination
  // is skipped (no change since its own run).
  const std::vector<PassStats>& s = pm.stats();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "constant_fold");
  EXPECT_EQ(s[0].runs, 2u);
  EXPECT_EQ(s[0].changed, 1u);
  EXPECT_EQ(s[0].nodes_before, 6u);
  EXPECT_EQ(s[0].nodes_after, 2u);
  EXPECT_EQ(s[0].removed, 0u);
  EXPECT_EQ(s[0].added, 0u);
  EXPECT_EQ(s[0].folded, 2u);  // 2 + 3 and 7 * 7
  EXPECT_EQ(s[1].name, "eliminate_dead_code");
  EXPECT_EQ(s[1].runs, 1u);
  EXPECT_EQ(s[1].changed, 1u);
  EXPECT_EQ(s[1].nodes_before, 6u);
  EXPECT_EQ(s[1].nodes_after, 2u);
  EXPECT_EQ(s[1].removed, 4u);
  EXPECT_EQ(s[1].folded, 0u);
  EXPECT_EQ(s[2].name, "infer_shapes");
  EXPECT_EQ(s[2].runs, 1u);
  EXPECT_EQ(s[2].nodes_before, 2u);
  EXPECT_EQ(s[2].removed, 0u);
  EXPECT_EQ(g.node_count(), 2u);
  EXPECT_NE(out.str().find("pass statistics (2 rounds to the fixpoint):\n"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("  constant_fold           2        1             6            2"),
            std::string::npos)
      << out.str();
}

TEST(PassManager, PrintIrAfterOnePassOrAll) {
  std::ostringstream out;
  PassOptions o = quiet(&out);
  o.print_ir_after = "eliminate_dead_code";
  ir::Graph g;
  build(g);
  PassManager pm(o);
  pm.add_fixpoint({*find_pass("constant_fold"), *find_pass("eliminate_dead_code")});
  pm.run(g);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("*** IR after eliminate_dead_code (round 1, changed) ***\ngraph(%x", 0), 0u)
      << text;
  EXPECT_EQ(text.find("*** IR after constant_fold"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.find('\n') + 1), ir::print_graph(g));  // the last change

  std::ostringstream all;
  o.out = &all;
  o.print_ir_after = "all";
  ir::Graph g2;
  build(g2);
  default_pipeline(o).run(g2);
  const std::string every = all.str();
  const size_t fold = every.find("*** IR after constant_fold (round 1, changed) ***\n");
  const size_t dce = every.find("*** IR after eliminate_dead_code (round 1, changed) ***\n");
  const size_t shapes = every.find("*** IR after infer_shapes (round 1, ");
  EXPECT_LT(fold, dce) << every;
  EXPECT_LT(dce, shapes) << every;
  EXPECT_NE(shapes, std::string::npos) << every;
}

TEST(PassManager, RunDefaultPassesUsesTheProcessOptions) {
  const PassOptions saved = default_pass_options();
  std::ostringstream out;
  PassOptions o = saved;
  o.out = &out;
  o.stats = true;
  set_default_pass_options(o);
  ir::Graph g;
  build(g);
  run_default_passes(g);
  set_default_pass_options(saved);
  EXPECT_NE(out.str().find("pass statistics"), std::string::npos);
  EXPECT_EQ(g.node_count(), 2u);
}

}  // namespace
}  // namespace d2s::convert
