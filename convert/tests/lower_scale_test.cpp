// Size limits: long programs lower without deep recursion, and inlining is bounded.
#include <chrono>

#include "convert/passes.h"
#include "convert/tests/lower_test_util.h"
#include "core/ir/verify.h"

namespace d2s::convert {
namespace {

TEST(LowerScale, TwentyThousandStatements) {
  std::string src = "import torch\ndef f(x, n: int):\n    s = 0\n";
  for (int i = 0; i < 20000; ++i) {
    src += i % 2 ? "    x = x + s\n" : "    s = s + n\n";
  }
  src += "    return x, s\n";
  auto start = std::chrono::steady_clock::now();
  LoweredGraph g = lower_string(src);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ir::verify(*g.graph);
  EXPECT_EQ(g.graph->outputs().size(), 2u);
  EXPECT_GE(g.graph->node_count(), 20000u);
  EXPECT_LT(seconds, 30.0);
  Executor exec(*g.graph);
  ValueList out = exec.run({testing::t({1}, {0}), IValue(int64_t{1})});
  EXPECT_EQ(out[1].to_int(), 10000);
  // x = 1 + 2 + ... + 10000, accumulated in float32
  EXPECT_NEAR(out[0].to_tensor().value_at(0), 10000.0 * 10001.0 / 2.0, 1e-3 * 5e7);
}

TEST(LowerScale, ThousandsOfEarlyReturnsNest) {
  // Each `if ...: return` nests the rest of the function in an If arm: the IR is as
  // deep as the program is long, and neither the lowering nor the passes recurse on it.
  const int n = 3000;
  std::string src = "def f(k: int):\n";
  for (int i = 0; i < n; ++i) {
    src += "    if k == " + std::to_string(i) + ":\n        return " + std::to_string(i * 2) + "\n";
  }
  src += "    return -1\n";
  LoweredGraph g = lower_string(src);
  ir::verify(*g.graph);
  EXPECT_EQ(testing::count_kind(g.graph->block(), ir::kind::If), static_cast<size_t>(n));
  EXPECT_FALSE(constant_fold(*g.graph));
  EXPECT_FALSE(eliminate_dead_code(*g.graph));
  EXPECT_FALSE(infer_shapes(*g.graph));
}

TEST(LowerScale, RecursionIsAnError) {
  std::string msg = testing::lower_error(
      "def f(n: int):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\n");
  EXPECT_NE(msg.find("recursive call to 'f' cannot be converted"), std::string::npos) << msg;
  EXPECT_NE(msg.find("model.py:4:12"), std::string::npos) << msg;
}

TEST(LowerScale, InliningDepthIsBounded) {
  std::string src;
  for (int i = 0; i < 80; ++i) {
    src += "def f" + std::to_string(i) + "(x):\n    return " +
           (i == 0 ? std::string("x") : "f" + std::to_string(i - 1) + "(x)") + "\n";
  }
  std::string msg = testing::lower_error(src);
  EXPECT_NE(msg.find("calls are nested more than 64 deep"), std::string::npos) << msg;
  LowerOptions o;
  o.max_inline_depth = 100;
  EXPECT_EQ(testing::lower_error(src, o), "");
}

}  // namespace
}  // namespace d2s::convert
