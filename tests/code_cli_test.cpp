// `d2s code` and `--reroll` from the command line (docs/code.md): the code of a
// sample, the rerolled trace, a picture of the rerolled diff, and one clear message
// (exit 2) for each misuse.
#include <gtest/gtest.h>

#include "tests/d2s_process.h"

namespace {

using d2s::test::RunResult;

class CodeCli : public d2s::test::ScratchDirTest {
 protected:
  CodeCli() : ScratchDirTest("d2s_code_cli_test_") {}

  RunResult d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(
        dir_, args, {.out = path(".stdout"), .err = path(".stderr"), .remove_after = true});
  }
  static std::string sample(const std::string& name) {
    return std::string(D2S_SOURCE_DIR) + "/samples/" + name;
  }
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(CodeCli, ParsedFoo2IsAForLoop) {
  RunResult r = d2s({"code", sample("foo2.py")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "import torch\n")) << r.out;
  EXPECT_TRUE(has(r.out, "def foo2(s: torch.Tensor):\n")) << r.out;
  EXPECT_TRUE(has(r.out, "    for i in range(10):  # line 9\n")) << r.out;
}

TEST_F(CodeCli, RerolledTraceOfFoo2IsOneLoopAndParsesBack) {
  RunResult r = d2s({"code", sample("foo2.py"), "--route", "trace", "--inputs",
                     sample("foo2.inputs.yaml"), "--reroll", "-o", path("foo2_code.py").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string code = d2s::test::slurp(path("foo2_code.py"));
  EXPECT_TRUE(has(code, "for i in range(10):  # line 9")) << code;
  EXPECT_TRUE(has(code, "# guard, line 8")) << code;
  RunResult back =
      d2s({"run", path("foo2_code.py").string(), "--inputs", sample("foo2.inputs.yaml")});
  RunResult eager = d2s({"run", sample("foo2.py"), "--inputs", sample("foo2.inputs.yaml")});
  ASSERT_EQ(back.code, 0) << back.err;
  EXPECT_EQ(back.out, eager.out);

  RunResult unrolled = d2s({"trace", sample("foo2.py"), "--inputs", sample("foo2.inputs.yaml")});
  RunResult rolled =
      d2s({"trace", sample("foo2.py"), "--inputs", sample("foo2.inputs.yaml"), "--reroll"});
  ASSERT_EQ(rolled.code, 0) << rolled.err;
  EXPECT_TRUE(has(rolled.out, "prim::Loop")) << rolled.out;
  EXPECT_FALSE(has(unrolled.out, "prim::Loop"));
}

TEST_F(CodeCli, DiffPictureOfTheRerolledTrace) {
  RunResult r = d2s({"diff", sample("foo2.py"), "--inputs", sample("foo2.inputs.yaml"), "--reroll",
                     "-o", path("foo2.dot").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string dot = d2s::test::slurp(path("foo2.dot"));
  // Both panels draw a loop: the parsed graph's and the rerolled trace's.
  size_t loops = 0;
  for (size_t at = dot.find("for i in range(10)</B>"); at != std::string::npos;
       at = dot.find("for i in range(10)</B>", at + 1)) {
    ++loops;
  }
  EXPECT_GE(loops, 2u) << dot.substr(0, 2000);
}

TEST_F(CodeCli, Misuses) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"code", sample("README.md")}, "is neither a model program nor a graph"},
      {{"code", sample("foo2.py"), "--route", "trace"}, "--route trace needs example inputs"},
      {{"code", sample("foo2.py"), "--reroll"}, "--reroll applies to --route trace"},
      {{"code", sample("foo2.py"), "-o", path("out.txt").string()}, "out.txt"},
      {{"diff", sample("foo2.py"), "--inputs", sample("foo2.inputs.yaml"), "--reroll"},
       "--reroll applies to a picture or an HTML report"},
  };
  for (const Case& c : cases) {
    RunResult r = d2s(c.args);
    EXPECT_EQ(r.code, 2) << c.message;
    EXPECT_TRUE(has(r.err, c.message)) << r.err;
  }
  // A backward graph's gradient nodes call PyTorch's own derivative of the forward op
  // (code_parity's grad cases run the code); its backward() is left to them.
  ASSERT_EQ(d2s({"grad", sample("foo1.py"), "-o", path("g.yaml").string()}).code, 0);
  RunResult grad = d2s({"code", path("g.yaml").string()});
  EXPECT_EQ(grad.code, 0) << grad.err;
  EXPECT_TRUE(has(grad.out, "def _d2s_vjp(fn, grads, args):")) << grad.out;
  EXPECT_TRUE(has(grad.out, "= _d2s_vjp(lambda a0, a1: ")) << grad.out;
  EXPECT_FALSE(has(grad.out, ".backward()\n")) << grad.out;
}

}  // namespace
