// The finding rules on small programs written for each rule (diff_findings.cpp).
#include "convert/tests/diff_test_util.h"
#include "core/base/error.h"

namespace d2s::convert {
namespace {

using testing::diff_source;
using testing::find;
using testing::KindLine;
using testing::kinds_lines;
using testing::t;

const char* kHeader = "import torch\nfrom torch import Tensor\n\n\n";  // 4 lines

TEST(DiffRules, SizeUsedByPythonIsShapeSpecialized) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"          // 5
                                 "    n = float(x.shape[0])\n"  // 6
                                 "    return x * n\n",          // 7
                             {{{"x", t({2, 3}, {1, 2, 3, 4, 5, 6})}}});
  EXPECT_EQ(kinds_lines(r), (std::vector<KindLine>{{"shape_specialized", 6}}));
  const Finding* f = find(r, FindingKind::ShapeSpecialized, 6);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->what, "float(x.shape[0])");
  EXPECT_EQ(f->value.to_double(), 2.0);
  EXPECT_EQ(f->symbols, std::vector<std::string>{"x_0"});
  EXPECT_FALSE(r.trace_safe);
}

TEST(DiffRules, SizesFlowingIntoOpsAndInputShapesAreNotReported) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"
                                 "    return x.view(x.size(0), -1) * x.shape[1]\n",
                             {{{"x", t({2, 3}, {1, 2, 3, 4, 5, 6})}}});
  EXPECT_TRUE(r.findings.empty());
  EXPECT_TRUE(r.trace_safe);
}

TEST(DiffRules, ShapeDependentBranch) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"      // 5
                                 "    if x.size(0) > 2:\n"  // 6
                                 "        x = x * 2\n"      // 7
                                 "    return x\n",
                             {{{"x", t({2}, {1, 2})}}});
  const Finding* f = find(r, FindingKind::LostBranch, 6);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->lost, Arm::Then);
  EXPECT_NE(f->message.find("tensor's size"), std::string::npos) << f->message;
}

TEST(DiffRules, AssertOnDataIsADroppedSideEffect) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"                     // 5
                                 "    assert x.sum() > 0, \"negative\"\n"  // 6
                                 "    return x + 1\n",
                             {{{"x", t({2}, {1, 2})}}});
  EXPECT_EQ(kinds_lines(r), (std::vector<KindLine>{{"dropped_side_effect", 6}}));
  EXPECT_EQ(r.findings[0].op, "prim::RaiseException");
  ASSERT_EQ(r.ifs.size(), 1u);
  EXPECT_TRUE(r.ifs[0].is_assert);
}

TEST(DiffRules, ScalarInputDecisions) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor, flag: bool):\n"  // 5
                                 "    if flag:\n"                   // 6
                                 "        x = x * 2\n"              // 7
                                 "    return x\n",
                             {{{"x", t({2}, {1, 2})}, {"flag", IValue(true)}}});
  EXPECT_EQ(kinds_lines(r), (std::vector<KindLine>{{"baked_value", 5}, {"lost_branch", 6}}));
  const Finding* f = find(r, FindingKind::LostBranch, 6);
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("scalar input"), std::string::npos) << f->message;
  // With both values given, the trace of set 0 still lost the else side: set 1, which
  // takes it, is the counterexample; the input is baked.
  r = diff_source(std::string(kHeader) +
                      "def f(x: Tensor, flag: bool):\n"
                      "    if flag:\n"
                      "        x = x * 2\n"
                      "    return x\n",
                  {{{"x", t({2}, {1, 2})}, {"flag", IValue(true)}},
                   {{"x", t({2}, {1, 2})}, {"flag", IValue(false)}}});
  EXPECT_EQ(kinds_lines(r), (std::vector<KindLine>{{"baked_value", 5}, {"lost_branch", 6}}));
  f = find(r, FindingKind::LostBranch, 6);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->counterexample, std::optional<size_t>(1));
}

// The number of pieces of a split depends on a size: the trace unpacks that many, so
// it guards the list's length. No finding is lossy, yet the guarded trace cannot run
// set 1: the verdict is `disagrees`, and check fails.
TEST(DiffRules, SplitLengthIsGuardedAndDisagrees) {
  const std::string program = std::string(kHeader) +
                              "def f(x: Tensor):\n"                           // 5
                              "    return torch.stack(x.split(2)).sum(0)\n";  // 6
  DiffReport r =
      diff_source(program, {{{"x", t({4}, {1, 2, 3, 4})}}, {{"x", t({6}, {1, 2, 3, 4, 5, 6})}}});
  EXPECT_TRUE(r.findings.empty());
  EXPECT_TRUE(r.trace_safe);
  ASSERT_EQ(r.agreement.size(), 2u);
  EXPECT_TRUE(r.agreement[0].agrees);
  EXPECT_FALSE(r.agreement[1].agrees);
  EXPECT_TRUE(r.agreement[1].guard_failed);
  EXPECT_EQ(r.agreement[1].line, 6);
  EXPECT_NE(r.agreement[1].detail.find("'x.split(2)' was 2 when traced, is 3 now"),
            std::string::npos)
      << r.agreement[1].detail;
  EXPECT_EQ(r.verdict(), Verdict::Disagrees);
  const std::string text = format_diff_text(r);
  EXPECT_NE(text.find(": DISAGREES (entry f, 2 input sets)"), std::string::npos) << text;
  EXPECT_NE(text.find("set 1 FAILS A GUARD"), std::string::npos) << text;
  // Same sizes: the guard holds and the verdict is trace-safe.
  r = diff_source(program, {{{"x", t({4}, {1, 2, 3, 4})}}, {{"x", t({4}, {4, 3, 2, 1})}}});
  EXPECT_EQ(r.verdict(), Verdict::TraceSafe);
}

// Every set ran eagerly; a parsed graph that cannot run one is a limit of the parse
// route (exit 2 with its error), never a `disagrees` verdict.
TEST(DiffRules, ParsedGraphThatCannotRunIsAnError) {
  // An unannotated parameter takes its type from set 0 in the parse route (a list
  // here), so its graph indexes `scales[0]` as a list and cannot take set 1's tensor,
  // which eager mode indexes too: a limit of the parse route, so an error, not a
  // verdict on the trace.
  const std::string program = std::string(kHeader) +
                              "def f(x: Tensor, scales):\n"  // 5
                              "    y = x * 2.0\n"
                              "    return y * scales[0]\n";  // 7
  try {
    diff_source(program, {{{"x", t({2}, {1, 2})}, {"scales", IValue::list({IValue(2.0)})}},
                          {{"x", t({2}, {1, 2})}, {"scales", t({2}, {2, 3})}}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_EQ(e.range().line, 7);
    EXPECT_NE(e.hint().find("its parsed graph does not"), std::string::npos) << e.hint();
  }
}

TEST(DiffRules, OptionalParameterLeftOutIsCompared) {
  // `mask=None` is Optional[Tensor] in the parse route: a set without the mask runs in
  // both routes and is compared.
  const std::string program = std::string(kHeader) +
                              "def f(x: Tensor, mask=None):\n"  // 5
                              "    if mask is not None:\n"
                              "        x = x * mask\n"  // 7
                              "    return x.sum()\n";
  DiffReport r =
      diff_source(program, {{{"x", t({2}, {1, 2})}}, {{"x", t({2}, {1, 2})}, {"mask", IValue()}}});
  ASSERT_EQ(r.agreement.size(), 2u);
  for (const auto& a : r.agreement) EXPECT_TRUE(a.agrees) << a.detail;
}

TEST(DiffRules, StoredTruthValueIsBaked) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"          // 5
                                 "    b = bool(x.max() > 3)\n"  // 6
                                 "    if b:\n"                  // 7
                                 "        x = x + 1\n"
                                 "    return x\n",
                             {{{"x", t({2}, {1, 5})}}});
  const Finding* f = find(r, FindingKind::BakedValue, 6);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->conversion, "bool");
  EXPECT_TRUE(f->value.to_bool());
}

TEST(DiffRules, ConstantDecisionsAreNotFindings) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"       // 5
                                 "    for i in range(3):\n"  // 6
                                 "        if i == 0:\n"      // 7
                                 "            x = x * 2\n"
                                 "    if x.dim() == 1:\n"  // 9: the rank is fixed
                                 "        x = x + 1\n"
                                 "    return x\n",
                             {{{"x", t({2}, {1, 5})}}});
  EXPECT_EQ(kinds_lines(r), (std::vector<KindLine>{{"unrolled_loop", 6}}));
  EXPECT_EQ(r.findings[0].severity, Severity::Info);
  EXPECT_TRUE(r.trace_safe);
  EXPECT_TRUE(r.ifs.empty());
}

TEST(DiffRules, InlinedHelperIsOneFindingAtItsSource) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def clip(v: Tensor) -> Tensor:\n"  // 5
                                 "    if v.sum() > 10:\n"            // 6
                                 "        return v / 2\n"            // 7
                                 "    return v\n"                    // 8
                                 "\n"
                                 "\n"
                                 "def f(x: Tensor, y: Tensor):\n"  // 11
                                 "    return clip(x) + clip(y)\n",
                             {{{"x", t({2}, {1, 2})}, {"y", t({2}, {3, 4})}}});
  EXPECT_EQ(kinds_lines(r), (std::vector<KindLine>{{"lost_branch", 6}}));
  EXPECT_EQ(r.findings[0].lost, Arm::Then);
  EXPECT_EQ(r.findings[0].lost_lines, std::vector<int>{7});
}

TEST(DiffRules, LoopWithDataDependentBreak) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"       // 5
                                 "    for i in range(4):\n"  // 6
                                 "        x = x * 2\n"
                                 "        if x.sum() > 10:\n"  // 8
                                 "            break\n"
                                 "    return x\n",
                             {{{"x", t({2}, {1, 1})}}});
  const Finding* f = find(r, FindingKind::UnrolledLoop, 6);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->source, Provenance::Data);
  EXPECT_EQ(f->trips, 3);
  EXPECT_NE(f->message.find("stops early"), std::string::npos) << f->message;
}

TEST(DiffRules, FindingsAreSortedAndTraceSafeMeansNoLossy) {
  DiffReport r = diff_source(std::string(kHeader) +
                                 "def f(x: Tensor):\n"       // 5
                                 "    for i in range(2):\n"  // 6
                                 "        x = x + 1\n"
                                 "    print(x.sum())\n"  // 8
                                 "    return x\n",
                             {{{"x", t({2}, {1, 1})}}});
  EXPECT_EQ(kinds_lines(r),
            (std::vector<KindLine>{{"unrolled_loop", 6}, {"dropped_side_effect", 8}}));
  EXPECT_EQ(r.lossy_count(), 1u);
  EXPECT_FALSE(r.trace_safe);
}

}  // namespace
}  // namespace d2s::convert

namespace d2s::convert {
namespace {

TEST(DiffRules, ScriptEntry) {
  DiffReport r = testing::diff_source(
      "import torch\n\n"
      "x = torch.ones(3)\n"  // 3
      "if x.sum() > 2:\n"    // 4
      "    x = x * 2\n"
      "print(x)\n",  // 6
      {{}}, testing::quick(true));
  EXPECT_EQ(r.entry, "<module>");
  EXPECT_EQ(testing::kinds_lines(r),
            (std::vector<testing::KindLine>{{"lost_branch", 4}, {"dropped_side_effect", 6}}));
  EXPECT_GT(r.traced.nodes, 0u);  // a script's trace keeps every op
  ASSERT_EQ(r.counterexamples.size(), 1u);
  EXPECT_FALSE(r.counterexamples[0].found);  // nothing to vary
  EXPECT_EQ(r.counterexamples[0].tries, 0);
}

}  // namespace
}  // namespace d2s::convert
