// Big programs diff in time linear in their size: no timing assertions (machines
// differ), only that long traces and many ifs complete with the right findings.
#include "convert/tests/diff_test_util.h"

namespace d2s::convert {
namespace {

using testing::diff_source;
using testing::t;

// About 100,000 nodes with guards (60,000 plain): a data-dependent if per iteration,
// 20,000 trace decisions at one source location.
TEST(DiffScale, LongTraceWithAnIfInALoop) {
  DiffReport r = diff_source(
      "import torch\nfrom torch import Tensor\n\n\n"
      "def f(x: Tensor) -> Tensor:\n"  // 5
      "    for i in range(20000):\n"   // 6
      "        if x.sum() > 0:\n"      // 7
      "            x = x - 0.5\n"
      "        else:\n"
      "            x = x + 1.0\n"
      "    return x\n",
      {{{"x", t({2}, {1, 2})}}});
  EXPECT_GE(r.traced.guarded_nodes, 100'000u);
  ASSERT_EQ(r.findings.size(), 1u);  // both sides taken: only the unrolled loop (info)
  EXPECT_EQ(r.findings[0].kind, FindingKind::UnrolledLoop);
  EXPECT_EQ(r.findings[0].trips, 20000);
  ASSERT_EQ(r.ifs.size(), 1u);
  EXPECT_EQ(r.ifs[0].arms[0], 3);
  EXPECT_TRUE(r.agrees());
}

// Many ifs in sequence, each its own location: every one is aligned and lost.
TEST(DiffScale, ThousandsOfIfs) {
  std::string src = "import torch\nfrom torch import Tensor\n\n\ndef f(x: Tensor) -> Tensor:\n";
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    src += "    if x.sum() > " + std::to_string(-1000000 - i) + ":\n        x = x + 1.0\n";
  }
  src += "    return x\n";
  DiffReport r = diff_source(src, {{{"x", t({2}, {1, 2})}}});
  EXPECT_EQ(r.findings.size(), static_cast<size_t>(n));
  EXPECT_EQ(r.parsed.ifs, static_cast<size_t>(n));
  EXPECT_EQ(r.findings.front().range.line, 6);
  EXPECT_EQ(r.findings.back().range.line, 6 + 2 * (n - 1));
}

}  // namespace
}  // namespace d2s::convert
