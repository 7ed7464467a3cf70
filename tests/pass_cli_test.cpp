// The graph passes' flags (docs/cli.md): --print-ir-after=PASS|all, --verify-each and
// --pass-stats on every command that lowers a program, the unknown-pass error, and the
// golden text of --print-ir-after=constant_fold (tests/golden/*.print_ir_after.txt).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

namespace fs = std::filesystem;

const std::string kRoot = D2S_SOURCE_DIR;

using d2s::test::RunResult;
using d2s::test::slurp;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// `if flag:` on a constant folds away (constant_fold inlines the taken arm), and the
// arithmetic on 2 and 3 becomes one constant; the unused `k` goes in dead-code
// elimination.
const char* kFoldable =
    "import torch\n"
    "\n"
    "def f(x):\n"
    "    flag = True\n"
    "    k = 2 * 3\n"
    "    if flag:\n"
    "        y = x * (2 + 3)\n"
    "    else:\n"
    "        y = x - 1\n"
    "    return y\n";

// One command line of each command that lowers a program (foo1 and its inputs).
std::vector<std::vector<std::string>> lowering_commands() {
  const std::string foo1 = kRoot + "/samples/foo1.py";
  const std::string inputs = kRoot + "/samples/foo1.inputs.yaml";
  return {
      {"parse", foo1},
      {"run", foo1, "--inputs", inputs, "--mode", "parse"},
      {"check", foo1, "--inputs", inputs},
      {"diff", foo1, "--inputs", inputs},
      {"code", foo1},
      {"export", foo1, "--inputs", inputs, "-o", "out.onnx"},
      {"trace", foo1, "--inputs", inputs},
  };
}

class PassFlags : public d2s::test::ScratchDirTest {
 protected:
  PassFlags() : ScratchDirTest("d2s_pass_cli_test_") {}

  RunResult d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(
        dir_, args, {.out = path(".stdout"), .err = path(".stderr"), .remove_after = true});
  }
};

TEST_F(PassFlags, PrintIrAfterConstantFoldGolden) {
  file("fold.py", kFoldable);
  RunResult plain = d2s({"parse", "fold.py"});
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.err, "");
  RunResult r = d2s({"parse", "fold.py", "--print-ir-after=constant_fold"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);  // stdout as without the flag
  const std::string golden = kRoot + "/tests/golden/fold.print_ir_after.txt";
  EXPECT_EQ(r.err, slurp(golden)) << "stderr differs from " << golden << ":\n" << r.err;
  // The text after the header is the printer's (what `d2s parse` prints), before the
  // later passes ran: the folded If is gone, the unused constant is still there.
  EXPECT_TRUE(has(r.err, "*** IR after constant_fold (round 1, changed) ***\ngraph(%x")) << r.err;
  EXPECT_FALSE(has(r.err, "prim::If")) << r.err;
}

TEST_F(PassFlags, PrintIrAfterAllNamesEachPassInOrder) {
  file("fold.py", kFoldable);
  RunResult r = d2s({"parse", "fold.py", "--print-ir-after", "all"});
  ASSERT_EQ(r.code, 0) << r.err;
  const size_t fold = r.err.find("*** IR after constant_fold (round 1, changed) ***");
  const size_t dce = r.err.find("*** IR after eliminate_dead_code (round 1, changed) ***");
  const size_t fold2 = r.err.find("*** IR after constant_fold (round 2, unchanged) ***");
  const size_t shapes = r.err.find("*** IR after infer_shapes (round 1, ");
  ASSERT_NE(fold, std::string::npos) << r.err;
  EXPECT_LT(fold, dce) << r.err;
  EXPECT_LT(dce, fold2) << r.err;
  EXPECT_LT(fold2, shapes) << r.err;
  EXPECT_NE(shapes, std::string::npos) << r.err;
  EXPECT_EQ(count(r.err, "*** IR after "), 4u) << r.err;
  EXPECT_EQ(count(r.err, "graph(%x"), 4u) << r.err;
}

TEST_F(PassFlags, UnknownPassIsAUsageError) {
  for (std::vector<std::string> args : lowering_commands()) {
    const std::string cmd = args[0];
    args.push_back("--print-ir-after=cse");
    RunResult r = d2s(args);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_EQ(r.out, "") << cmd;
    EXPECT_EQ(r.err,
              "d2s: error: unknown pass 'cse'\n"
              "hint: the passes are constant_fold, eliminate_dead_code, infer_shapes (or all)\n")
        << cmd;
  }
}

TEST_F(PassFlags, PassStatsTableOnStderr) {
  file("fold.py", kFoldable);
  RunResult plain = d2s({"parse", "fold.py"});
  RunResult r = d2s({"parse", "fold.py", "--pass-stats"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.err.rfind("pass statistics (2 rounds to the fixpoint):\n", 0), 0u) << r.err;
  EXPECT_TRUE(has(r.err, "  pass                 runs  changed  nodes before  nodes after"))
      << r.err;
  // Folding ran twice (the second round found nothing), dead-code elimination once.
  EXPECT_TRUE(has(r.err, "\n  constant_fold           2        1")) << r.err;
  EXPECT_TRUE(has(r.err, "\n  eliminate_dead_code     1        1")) << r.err;
  EXPECT_TRUE(has(r.err, "\n  infer_shapes            1")) << r.err;
  EXPECT_EQ(count(r.err, "\n"), 5u) << r.err;
}

TEST_F(PassFlags, VerifyEachChangesNoOutput) {
  file("fold.py", kFoldable);
  RunResult plain = d2s({"parse", "fold.py"});
  RunResult r = d2s({"parse", "fold.py", "--verify-each"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.err, "");
}

// Every command that lowers a program takes the flags; without them its outputs are
// unchanged, with --pass-stats the table is added on stderr only.
TEST_F(PassFlags, EveryLoweringCommandTakesTheFlags) {
  for (const auto& cmd : lowering_commands()) {
    fs::remove(path("out.onnx"));
    RunResult plain = d2s(cmd);
    std::vector<std::string> args = cmd;
    for (const char* flag : {"--verify-each", "--pass-stats", "--print-ir-after=infer_shapes"}) {
      args.push_back(flag);
    }
    RunResult r = d2s(args);
    EXPECT_EQ(r.code, plain.code) << cmd[0] << ": " << r.err;
    EXPECT_EQ(r.out, plain.out) << cmd[0];
    // What the command prints on stderr itself comes after the passes' text.
    EXPECT_TRUE(r.err.size() >= plain.err.size() &&
                r.err.compare(r.err.size() - plain.err.size(), std::string::npos, plain.err) == 0)
        << cmd[0] << ":\n"
        << r.err;
    if (cmd[0] != "trace") {  // the trace route records a run; no pass runs on it
      EXPECT_TRUE(has(r.err, "pass statistics")) << cmd[0] << ":\n" << r.err;
      EXPECT_TRUE(has(r.err, "*** IR after infer_shapes (round 1, ")) << cmd[0] << ":\n" << r.err;
    }
  }
}

}  // namespace
