// In-place ops in the parse route (issue 15 item 6): a write into a tensor (`add_`,
// `x += 1`, `relu_`, ...) stays a node with an effect, dead-code elimination keeps it
// however unused its result, and every later read of the tensor sees the write, through
// another name and through a list or tuple that holds it, as in eager mode and PyTorch.
// Each program runs eagerly and as its lowered graph; outputs must agree, and the
// expected values are checked outright where eager mode could share a mistake.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::Differential;
using testing::t;

IValue run_parsed(const std::string& source, const Tensor& x) {
  LoweredGraph lowered = lower_string(source);
  Executor exec(*lowered.graph);
  ValueList outs = exec.run({IValue(x.clone())});
  return outs.at(0);
}

std::vector<float> floats(const IValue& v) {
  const Tensor& t = v.to_tensor();
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

TEST(LowerInplace, UnusedResultOfAnInPlaceMethodIsKept) {
  const std::string src =
      "def f(x):\n"
      "    y = x * 1\n"
      "    y.add_(1)\n"
      "    return y\n";
  EXPECT_TRUE(testing::file_check(testing::lower_and_print(src), "# CHECK: aten::add_"));
  EXPECT_EQ(floats(run_parsed(src, t({2}, {1, 2}))), (std::vector<float>{2, 3}));
  EXPECT_TRUE(Differential{}.run_source(src, {{"x", t({2}, {1, 2})}}));
}

TEST(LowerInplace, AugmentedAssignmentIsSeenThroughAnotherName) {
  const std::string src =
      "def f(x):\n"
      "    a = x\n"
      "    x += 1\n"
      "    return a\n";
  EXPECT_EQ(floats(run_parsed(src, t({2}, {1, 2}))), (std::vector<float>{2, 3}));
  EXPECT_TRUE(Differential{}.run_source(src, {{"x", t({2}, {1, 2})}}));
}

TEST(LowerInplace, WritesAreSeenThroughListsAndTuples) {
  const std::string src =
      "def f(x):\n"
      "    y = x * 1\n"
      "    items = [y, x]\n"
      "    pair = (y, 2)\n"
      "    y.mul_(3)\n"
      "    items[1].sub_(1)\n"
      "    return items[0] + pair[0], x\n";
  EXPECT_EQ(floats(run_parsed(src, t({2}, {1, 2}))), (std::vector<float>{6, 12}));
  EXPECT_TRUE(Differential{}.run_source(src, {{"x", t({2}, {1, 2})}}));
}

TEST(LowerInplace, EveryInPlaceMethodTakesEffect) {
  for (const char* call :
       {"y.add_(2)", "y.sub_(2)", "y.mul_(2)", "y.div_(2)", "y += 2", "y -= 2", "y *= 2", "y /= 2",
        "y.copy_(x + 5)", "y.fill_(7)", "y.zero_()", "y.clamp_(-0.5, 0.5)", "y.relu_()"}) {
    const std::string src =
        std::string("def f(x):\n    y = x * 1\n    ") + call + "\n    return y\n";
    EXPECT_TRUE(Differential{}.run_source(src, {{"x", t({3}, {-1.5, 0.25, 2})}})) << call;
    IValue once = run_parsed(src, t({3}, {-1.5, 0.25, 2}));
    EXPECT_NE(floats(once), (std::vector<float>{-1.5, 0.25, 2})) << call << " changed nothing";
  }
}

TEST(LowerInplace, AccumulatorInALoopAndInABranch) {
  const std::string src =
      "import torch\n"
      "def f(x):\n"
      "    total = torch.zeros(2)\n"
      "    seen = total\n"
      "    for i in range(3):\n"
      "        total += x * i\n"
      "        if i == 1:\n"
      "            total.mul_(2)\n"
      "    return seen\n";
  // ((0 + x) * 2 + 2x) = 4x
  EXPECT_EQ(floats(run_parsed(src, t({2}, {1, 2}))), (std::vector<float>{4, 8}));
  EXPECT_TRUE(Differential{}.run_source(src, {{"x", t({2}, {1, 2})}}));
}

TEST(LowerInplace, IndexWritesReachTheTensorAndItsAliases) {
  const std::string src =
      "def f(x):\n"
      "    y = x * 1\n"
      "    a = y\n"
      "    y[0] = 5\n"
      "    y[1:, 0] = x[0, 0] * 2\n"
      "    y[1, 2] += 3\n"
      "    y[:, 1] *= 10\n"
      "    return a\n";
  EXPECT_TRUE(testing::file_check(testing::lower_and_print(src),
                                  "# CHECK: aten::select_scatter\n# CHECK: aten::copy_"));
  EXPECT_EQ(floats(run_parsed(src, t({2, 3}, {1, 2, 3, 4, 5, 6}))),
            (std::vector<float>{5, 50, 5, 2, 50, 9}));
  EXPECT_TRUE(Differential{}.run_source(src, {{"x", t({2, 3}, {1, 2, 3, 4, 5, 6})}}));
}

TEST(LowerInplace, NumbersStillRebindTheirName) {
  // `n += 1` on an int makes a new int: the alias keeps the old one, as in Python.
  const std::string src =
      "def f(x):\n"
      "    n = 1\n"
      "    m = n\n"
      "    n += 1\n"
      "    y = x * 1\n"
      "    z = y\n"
      "    y = y ** 2\n"
      "    y //= 1\n"
      "    return x * m + z, y\n";
  EXPECT_TRUE(Differential{}.run_source(src, {{"x", t({2}, {1, 2})}}));
  EXPECT_EQ(floats(run_parsed(src, t({2}, {1, 2}))), (std::vector<float>{2, 4}));
}

TEST(LowerInplace, EachRunStartsFromTheSameValues) {
  // Two runs of one executor: the second must not see the first one's writes.
  const std::string src =
      "import torch\n"
      "def f(x):\n"
      "    total = torch.ones(2)\n"
      "    total += x\n"
      "    return total\n";
  LoweredGraph lowered = lower_string(src);
  Executor exec(*lowered.graph);
  for (int run = 0; run < 2; ++run) {
    ValueList outs = exec.run({IValue(t({2}, {1, 2}))});
    EXPECT_EQ(floats(outs.at(0)), (std::vector<float>{2, 3})) << "run " << run;
  }
}

}  // namespace
}  // namespace d2s::convert
