// Limits end to end (docs/errors.md, "Limits"): an endless loop stops with a message
// naming the loop's line in every route, and each limit flag is honoured.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

using d2s::test::RunResult;

class Limits : public d2s::test::ScratchDirTest {
 protected:
  Limits() : ScratchDirTest("d2s_limits_test_") {}

  RunResult d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(dir_, args,
                              {.out = {}, .err = path(".stderr"), .remove_after = false});
  }
};

const char* kWhileTrue =
    "import torch\n"
    "\n"
    "\n"
    "def f(x):\n"
    "    while True:\n"
    "        x = x + 1\n"
    "    return x\n";

TEST_F(Limits, WhileTrueNamesTheLoopLineInEveryRoute) {
  file("loop.py", kWhileTrue);
  file("in.yaml", "x: {shape: [2], data: [1, 2]}\n");
  for (const char* mode : {"eager", "trace", "parse"}) {
    SCOPED_TRACE(mode);
    RunResult r =
        d2s({"run", "loop.py", "--inputs", "in.yaml", "--mode", mode, "--max-iterations", "500"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("loop.py:5:5: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("line 5"), std::string::npos) << r.err;
    // The source line is quoted with its own indentation after the 4-space margin.
    EXPECT_NE(r.err.find("\n        while True:\n        ^~~~~\n"), std::string::npos) << r.err;
  }
}

TEST_F(Limits, TensorElementsFlag) {
  file("big.py", "import torch\n\n\ndef f(x):\n    return torch.zeros(50, 50) + x\n");
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  RunResult r = d2s({"run", "big.py", "--inputs", "in.yaml", "--max-tensor-elements", "1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("big.py:5:12: error: tensor of shape [50, 50] is too large", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find("--max-tensor-elements"), std::string::npos) << r.err;
  // Raised high enough, the same run succeeds.
  r = d2s({"run", "big.py", "--inputs", "in.yaml", "--max-tensor-elements", "2500"});
  EXPECT_EQ(r.code, 0) << r.err;
  // Inputs files obey it too.
  file("huge.yaml", "x: {shape: [100, 100], fill: zeros}\n");
  r = d2s({"run", "big.py", "--inputs", "huge.yaml", "--max-tensor-elements", "1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("huge.yaml:1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-tensor-elements"), std::string::npos) << r.err;
  r = d2s({"run", "big.py", "--inputs", "in.yaml", "--max-tensor-elements", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-tensor-elements"), std::string::npos) << r.err;
}

TEST_F(Limits, TensorMemoryFlag) {
  // Two 40,000-byte tensors alive at once, then their sum: 120,000 bytes at the peak.
  file("two.py",
       "import torch\n\n\ndef f(x):\n    a = torch.zeros(100, 100)\n"
       "    b = torch.ones(100, 100)\n    return a + b + x\n");
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  for (const char* mode : {"eager", "trace"}) {
    RunResult r = d2s(
        {"run", "two.py", "--inputs", "in.yaml", "--mode", mode, "--max-tensor-memory", "60000"});
    EXPECT_EQ(r.code, 2) << mode;
    EXPECT_EQ(r.err.rfind("two.py:6:9: error: out of tensor memory: a tensor of shape [100, 100] "
                          "needs 40000 bytes while 40",
                          0),
              0u)
        << mode << ": " << r.err;
    EXPECT_NE(r.err.find("--max-tensor-memory"), std::string::npos) << r.err;
    // With a unit, raised high enough, the same run succeeds.
    r = d2s({"run", "two.py", "--inputs", "in.yaml", "--mode", mode, "--max-tensor-memory", "1MB"});
    EXPECT_EQ(r.code, 0) << mode << ": " << r.err;
  }
  for (const char* bad : {"0", "-5", "lots"}) {
    RunResult r = d2s({"run", "two.py", "--inputs", "in.yaml", "--max-tensor-memory", bad});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--max-tensor-memory"), std::string::npos) << bad << ": " << r.err;
  }
}

TEST_F(Limits, GraphNodesFlag) {
  file("m.py", "import torch\n\n\ndef f(x):\n    return (x + 1) * 2 - 3\n");
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  ASSERT_EQ(d2s({"parse", "m.py", "-o", "g.yaml"}).code, 0);
  RunResult r = d2s({"run", "g.yaml", "--inputs", "in.yaml", "--max-graph-nodes", "2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("g.yaml:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("more than 2 nodes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-graph-nodes"), std::string::npos) << r.err;
  r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
