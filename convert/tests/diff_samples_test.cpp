// The expected diff of every sample: the spec of what tracing loses in each, written
// down from reading the program (samples/README.md says what each one shows).
#include <filesystem>
#include <set>

#include "convert/tests/diff_test_util.h"
#include "core/base/error.h"

namespace d2s::convert {
namespace {

using testing::diff_sample;
using testing::find;
using testing::KindLine;
using testing::kinds_lines;

struct SampleSpec {
  const char* name;
  int set;  // -1: all the sets of its inputs file
  std::vector<KindLine> findings;
  bool trace_safe;
  bool agrees;  // the trace of set 0 and the parsed graph agree on every set
};

const std::vector<SampleSpec>& specs() {
  static const std::vector<SampleSpec> s = {
      // All sets together: findings describe the trace of set 0; a side it did not take
      // is lost even when another set takes it (that set is the counterexample).
      {"break_continue", -1, {{"baked_value", 8}, {"unrolled_loop", 11}}, false, false},
      {"dynamic_model", -1, {{"dropped_side_effect", 17}, {"lost_branch", 19}}, false, false},
      {"early_return", -1, {{"lost_branch", 9}}, false, false},
      {"foo1", -1, {{"lost_branch", 9}}, false, false},
      {"foo2", -1, {{"unrolled_loop", 9}}, true, true},
      {"item_arith",
       -1,
       {{"baked_value", 9}, {"baked_value", 10}, {"lost_branch", 12}},
       false,
       false},
      {"layer_norm_gelu", -1, {}, true, true},
      {"mlp", -1, {}, true, true},
      {"module_helper", -1, {{"unrolled_loop", 21}}, true, true},
      {"nested_ifs", -1, {{"lost_branch", 9}, {"lost_branch", 10}}, false, false},
      // The print on line 13 is in the side set 0 did not take: part of that finding.
      {"print_branch", -1, {{"lost_branch", 9}, {"dropped_side_effect", 10}}, false, false},
      {"rnn_cell", -1, {{"lost_branch", 10}}, false, false},
      {"rnn_cell_backward", -1, {{"lost_branch", 12}}, false, false},
      {"scalar_input",
       -1,
       {{"baked_value", 8}, {"baked_value", 8}, {"unrolled_loop", 10}},
       false,
       false},
      {"shape_loop", -1, {{"unrolled_loop", 11}}, false, false},
      {"slice_cat", -1, {}, true, true},
      {"small_cnn", -1, {}, true, true},
      {"lstm_lm", -1, {}, true, true},
      {"tensor_iter", -1, {{"unrolled_loop", 10}}, false, false},
      {"training_flag", -1, {}, true, true},
      {"view_batch", -1, {}, true, true},
      {"while_converge", -1, {{"unrolled_loop", 11}}, false, false},
      // One set: the branch it did not take is lost.
      {"foo1", 0, {{"lost_branch", 9}}, false, true},
      {"foo1", 1, {{"lost_branch", 9}}, false, true},
      {"rnn_cell", 0, {{"lost_branch", 10}}, false, true},
      {"rnn_cell", 1, {{"lost_branch", 10}}, false, true},
      {"rnn_cell_backward", 0, {{"lost_branch", 12}}, false, true},
      {"rnn_cell_backward", 1, {{"lost_branch", 12}}, false, true},
      {"dynamic_model", 0, {{"dropped_side_effect", 17}, {"lost_branch", 19}}, false, true},
      {"early_return", 0, {{"lost_branch", 9}}, false, true},
      {"early_return", 1, {{"lost_branch", 9}, {"lost_branch", 12}}, false, true},
      {"early_return", 2, {{"lost_branch", 9}, {"lost_branch", 12}}, false, true},
      {"nested_ifs", 0, {{"lost_branch", 9}, {"lost_branch", 10}}, false, true},
      {"nested_ifs", 1, {{"lost_branch", 9}, {"lost_branch", 10}}, false, true},
      {"nested_ifs", 2, {{"lost_branch", 9}, {"lost_branch", 14}}, false, true},
      {"nested_ifs", 3, {{"lost_branch", 9}, {"lost_branch", 14}}, false, true},
      {"item_arith",
       0,
       {{"baked_value", 9}, {"baked_value", 10}, {"lost_branch", 12}},
       false,
       true},
      {"print_branch", 0, {{"lost_branch", 9}, {"dropped_side_effect", 10}}, false, true},
      {"print_branch", 1, {{"lost_branch", 9}, {"dropped_side_effect", 13}}, false, true},
      {"break_continue",
       1,
       {{"baked_value", 8}, {"unrolled_loop", 11}, {"lost_branch", 17}},
       false,
       true},
      {"scalar_input",
       2,
       {{"baked_value", 8}, {"baked_value", 8}, {"unrolled_loop", 10}},
       false,
       true},
  };
  return s;
}

TEST(DiffSamples, ExpectedFindings) {
  for (const SampleSpec& spec : specs()) {
    SCOPED_TRACE(std::string(spec.name) + " set " + std::to_string(spec.set));
    DiffReport r = diff_sample(spec.name, spec.set);
    EXPECT_EQ(kinds_lines(r), spec.findings);
    EXPECT_EQ(r.trace_safe, spec.trace_safe);
    EXPECT_EQ(r.agrees(), spec.agrees);
    EXPECT_EQ(r.trace_safe, r.lossy_count() == 0);
  }
}

TEST(DiffSamples, EverySampleHasASpec) {
  std::set<std::string> covered;
  for (const SampleSpec& spec : specs()) covered.insert(spec.name);
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(D2S_SOURCE_DIR) + "/samples")) {
    if (e.path().extension() != ".py") continue;
    EXPECT_TRUE(covered.count(e.path().stem().string())) << e.path();
  }
}

TEST(DiffSamples, LostBranchSidesAndLines) {
  DiffReport r = diff_sample("foo1", 0);
  const Finding* f = find(r, FindingKind::LostBranch, 9);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->range.col, 5);
  EXPECT_EQ(f->taken, Arm::Then);
  EXPECT_EQ(f->lost, Arm::Else);
  EXPECT_EQ(f->lost_lines, std::vector<int>{12});
  EXPECT_EQ(f->test, "x < y");
  EXPECT_EQ(f->severity, Severity::Lossy);

  r = diff_sample("foo1", 1);
  f = find(r, FindingKind::LostBranch, 9);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->lost, Arm::Then);
  EXPECT_EQ(f->lost_lines, std::vector<int>{10});

  // No else arm: the lost side is empty, the trace always runs the body.
  r = diff_sample("rnn_cell", 0);
  f = find(r, FindingKind::LostBranch, 10);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->lost, Arm::Else);
  EXPECT_TRUE(f->lost_lines.empty());
  EXPECT_NE(f->message.find("always runs its body (lines 11-12)"), std::string::npos) << f->message;
  r = diff_sample("rnn_cell", 1);
  f = find(r, FindingKind::LostBranch, 10);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->lost, Arm::Then);
  EXPECT_EQ(f->lost_lines, (std::vector<int>{11, 12}));

  // An early return: the rest of the function is the lost side.
  r = diff_sample("early_return", 0);
  f = find(r, FindingKind::LostBranch, 9);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->lost, Arm::Else);
  EXPECT_EQ(f->lost_lines, (std::vector<int>{11, 12, 13, 14}));

  r = diff_sample("dynamic_model", 0);
  f = find(r, FindingKind::LostBranch, 19);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->range.col, 9);
  EXPECT_EQ(f->lost_lines, std::vector<int>{22});
}

TEST(DiffSamples, ElifIsItsOwnLine) {
  DiffReport r = diff_sample("nested_ifs", 0);
  const Finding* outer = find(r, FindingKind::LostBranch, 9);
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->lost, Arm::Else);
  EXPECT_EQ(outer->lost_lines, (std::vector<int>{14, 15, 17}));  // the elif chain
  const Finding* inner = find(r, FindingKind::LostBranch, 10);
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->lost_lines, std::vector<int>{13});

  r = diff_sample("nested_ifs", 2);
  outer = find(r, FindingKind::LostBranch, 9);
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->lost, Arm::Then);
  EXPECT_EQ(outer->lost_lines, (std::vector<int>{10, 11, 13}));
  const Finding* elif = find(r, FindingKind::LostBranch, 14);
  ASSERT_TRUE(elif);
  EXPECT_TRUE(elif->is_elif);
  EXPECT_EQ(elif->range.col, 5);
  EXPECT_EQ(elif->taken, Arm::Then);
  EXPECT_EQ(elif->lost_lines, std::vector<int>{17});
  EXPECT_EQ(elif->message.rfind("`elif s < -1:` was True", 0), 0u) << elif->message;
}

TEST(DiffSamples, ConditionalExpression) {
  DiffReport r = diff_sample("item_arith", 0);
  const Finding* f = find(r, FindingKind::LostBranch, 12);
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->expression);
  EXPECT_EQ(f->lost, Arm::Else);
  EXPECT_EQ(f->lost_lines, std::vector<int>{12});
  EXPECT_EQ(f->test, "scale > 2.0");
}

TEST(DiffSamples, LoopSources) {
  struct Case {
    const char* name;
    int line;
    Provenance source;
    int64_t trips;
    Severity severity;
  };
  for (const Case& c : std::vector<Case>{
           {"foo2", 9, Provenance::Constant, 10, Severity::Info},
           {"module_helper", 21, Provenance::Constant, 3, Severity::Info},
           {"shape_loop", 11, Provenance::Shape, 3, Severity::Lossy},
           {"tensor_iter", 10, Provenance::Shape, 3, Severity::Lossy},
           {"while_converge", 11, Provenance::Data, 2, Severity::Lossy},
           // A shape-sized loop that breaks on a tensor test: its count comes from data.
           {"break_continue", 11, Provenance::Data, 3, Severity::Lossy},
           // range(n) with an int input: the trace bakes n.
           {"scalar_input", 10, Provenance::Data, 2, Severity::Lossy},
       }) {
    SCOPED_TRACE(c.name);
    DiffReport r = diff_sample(c.name);
    const Finding* f = find(r, FindingKind::UnrolledLoop, c.line);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->source, c.source);
    EXPECT_EQ(f->trips, c.trips);
    EXPECT_EQ(f->severity, c.severity);
  }
  DiffReport converge = diff_sample("while_converge");  // w points into it
  const Finding* w = find(converge, FindingKind::UnrolledLoop, 11);
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->is_while);
}

TEST(DiffSamples, BakedValues) {
  DiffReport r = diff_sample("item_arith");
  const Finding* scale = find(r, FindingKind::BakedValue, 9);
  ASSERT_TRUE(scale);
  EXPECT_EQ(scale->what, "x.abs().max().item()");
  EXPECT_EQ(scale->conversion, "item");
  EXPECT_DOUBLE_EQ(scale->value.to_double(), 3.0);
  const Finding* k = find(r, FindingKind::BakedValue, 10);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->what, "int(x.argmax())");
  EXPECT_EQ(k->value.to_int(), 1);

  // Scalar inputs: the value set 0 traced with (alpha: its default).
  r = diff_sample("scalar_input");
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].what, "n");
  EXPECT_EQ(r.findings[0].conversion, "input");
  EXPECT_EQ(r.findings[0].value.to_int(), 2);
  EXPECT_EQ(r.findings[1].what, "alpha");
  EXPECT_DOUBLE_EQ(r.findings[1].value.to_double(), 0.5);
}

TEST(DiffSamples, DroppedPrints) {
  for (int set : {0, 1}) {
    const int line = set == 0 ? 10 : 13;  // the print in the side the set takes
    DiffReport r = diff_sample("print_branch", set);
    const Finding* f = find(r, FindingKind::DroppedSideEffect, line);
    ASSERT_TRUE(f) << line;
    EXPECT_EQ(f->op, "prim::Print");
    EXPECT_EQ(f->severity, Severity::Lossy);
  }
  // Both sets: only set 0's trace is described; the print of the side set 1 takes is
  // part of the lost branch.
  DiffReport both = diff_sample("print_branch");
  EXPECT_TRUE(find(both, FindingKind::DroppedSideEffect, 10));
  EXPECT_FALSE(find(both, FindingKind::DroppedSideEffect, 13));
  const Finding* lost = find(both, FindingKind::LostBranch, 9);
  ASSERT_TRUE(lost);
  EXPECT_EQ(lost->lost_lines, std::vector<int>{13});
  // The print under `if self.training:` (a constant: no finding for the if itself).
  DiffReport r = diff_sample("dynamic_model");
  const Finding* f = find(r, FindingKind::DroppedSideEffect, 17);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->range.col, 13);
  EXPECT_EQ(r.ifs.size(), 1u);  // only the data-dependent if at line 19
}

// Findings describe the trace of set 0: another set taking the side it lost does not
// cover that side, it proves the trace wrong (issue 15: the rnn_cell and foo1 samples
// were "trace-safe by coverage only", with no lossy finding).
TEST(DiffSamples, AnotherSetTakingTheLostSideIsTheCounterexample) {
  for (const char* name : {"foo1", "rnn_cell", "dynamic_model"}) {
    SCOPED_TRACE(name);
    DiffReport r = diff_sample(name);
    ASSERT_EQ(r.ifs.size(), 1u);
    const Finding* f = find(r, FindingKind::LostBranch, r.ifs[0].range.line);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Lossy);
    EXPECT_EQ(f->counterexample, std::optional<size_t>(1));
    EXPECT_NE(f->message.find("Set 1 is such an input"), std::string::npos) << f->message;
    EXPECT_FALSE(r.trace_safe);
    EXPECT_EQ(r.verdict(), Verdict::Lossy);
    // The given set, run through the plain trace of set 0, is the counterexample.
    const Counterexample* c = nullptr;
    for (const Counterexample& x : r.counterexamples) {
      if (x.range.line == f->range.line) c = &x;
    }
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->given);
    EXPECT_TRUE(c->found);
    EXPECT_TRUE(c->differs);
    EXPECT_EQ(c->base_set, 1u);
    EXPECT_EQ(c->tries, 0);
  }
  // foo1 set 1 alone: the then side is lost and no set takes it; the search runs.
  DiffReport one = diff_sample("foo1", 1);
  const Finding* f = find(one, FindingKind::LostBranch, 9);
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->counterexample);
}

TEST(DiffSamples, TripCountsThatDifferBetweenSetsAreLossy) {
  DiffReport r = diff_sample("shape_loop");
  const Finding* f = find(r, FindingKind::UnrolledLoop, 11);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::Lossy);
  EXPECT_EQ(f->trips, 3);
  EXPECT_EQ(f->set_trips, (std::vector<std::optional<int64_t>>{3, 5}));
  EXPECT_EQ(f->counterexample, std::optional<size_t>(1));
  EXPECT_NE(f->message.find("Set 1 runs it 5 times"), std::string::npos) << f->message;
  // A constant count is the same in every set: info, no counterexample.
  r = diff_sample("foo2");
  f = find(r, FindingKind::UnrolledLoop, 9);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::Info);
  EXPECT_FALSE(f->counterexample);
  EXPECT_EQ(r.verdict(), Verdict::TraceSafe);
}

TEST(DiffSamples, MergedCoverage) {
  DiffReport r = diff_sample("foo1");
  ASSERT_EQ(r.ifs.size(), 1u);
  EXPECT_EQ(r.ifs[0].range.line, 9);
  EXPECT_EQ(r.ifs[0].arms, (std::vector<uint8_t>{1, 2}));  // set 0 then, set 1 else
  ASSERT_EQ(r.agreement.size(), 2u);
  EXPECT_TRUE(r.agreement[0].agrees);
  EXPECT_FALSE(r.agreement[1].agrees);

  r = diff_sample("nested_ifs");
  // The elif at line 14 is not in set 0's trace: part of the lost else of line 9.
  EXPECT_EQ(kinds_lines(r), (std::vector<KindLine>{{"lost_branch", 9}, {"lost_branch", 10}}));
  ASSERT_EQ(r.ifs.size(), 3u);
  EXPECT_EQ(r.ifs[0].arms, (std::vector<uint8_t>{1, 1, 2, 2}));  // if s > 0
  EXPECT_EQ(r.ifs[1].arms, (std::vector<uint8_t>{1, 2, 0, 0}));  // if y.mean() > 0
  EXPECT_TRUE(r.ifs[2].is_elif);
  EXPECT_EQ(r.ifs[2].arms, (std::vector<uint8_t>{0, 0, 1, 2}));

  r = diff_sample("shape_loop");
  ASSERT_EQ(r.loops.size(), 1u);
  ASSERT_EQ(r.loops[0].trips.size(), 2u);
  EXPECT_EQ(r.loops[0].trips[0].max, 3);
  EXPECT_EQ(r.loops[0].trips[1].max, 5);

  // A loop body runs many times: one row per if, each set's sides merged.
  r = diff_sample("break_continue");
  ASSERT_EQ(r.ifs.size(), 2u);
  EXPECT_EQ(r.ifs[0].arms, (std::vector<uint8_t>{3, 3}));
  EXPECT_EQ(r.ifs[1].arms, (std::vector<uint8_t>{3, 2}));
}

TEST(DiffSamples, SizesAndCounts) {
  DiffReport r = diff_sample("foo1", 0);
  EXPECT_EQ(r.entry, "foo1");
  EXPECT_EQ(r.parsed.ifs, 1u);
  EXPECT_EQ(r.parsed.loops, 0u);
  EXPECT_GT(r.parsed.nodes, r.traced.nodes);
  EXPECT_EQ(r.traced.guards, 4u);  // three input ranks and `x < y`
  EXPECT_GT(r.traced.guarded_nodes, r.traced.nodes);

  r = diff_sample("dynamic_model", 0);
  EXPECT_EQ(r.entry, "DynamicModel.forward");
}

TEST(DiffSamples, ProgramsThatCannotConvertAreErrors) {
  Program program = Program::load(std::string(D2S_SOURCE_DIR) + "/samples/errors/rnn_textbook.py");
  EXPECT_THROW(diff_program(program, {{"none", {}}}, testing::quick()), Error);
  Program ok = Program::load(testing::sample_file("foo1", ".py"));
  EXPECT_THROW(diff_program(ok, {}, testing::quick()), Error);
}

}  // namespace
}  // namespace d2s::convert
