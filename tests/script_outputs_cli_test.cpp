// A script's outputs (issue 15 item 5, docs/language.md "Scripts"): `d2s parse` of the
// textbook's RNN script keeps its computation and returns the values of the names the
// script assigns, and `d2s run` gives the same values in every mode.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

using d2s::test::RunResult;

class ScriptOutputs : public d2s::test::ScratchDirTest {
 protected:
  ScriptOutputs() : ScratchDirTest("d2s_script_outputs_test_") {}

  RunResult d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(
        dir_, args, {.out = path(".stdout"), .err = path(".stderr"), .remove_after = true});
  }
};

const std::string kTextbook =
    std::string(D2S_SOURCE_DIR) + "/tests/parity/language/modules_script_outputs.py";

TEST_F(ScriptOutputs, ParseKeepsTheComputationAndReturnsTheScriptsNames) {
  RunResult r = d2s({"parse", kTextbook});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* op : {"aten::mm", "prim::If", "aten::tanh", "aten::sum", "aten::backward"}) {
    EXPECT_NE(r.out.find(op), std::string::npos) << op << " missing from:\n" << r.out;
  }
  // The names assigned by straight-line top-level statements, in source order; `i2h`
  // (assigned only inside the `if`) is not one, `h2h` is its value after the `if`.
  EXPECT_NE(r.out.find("return (%a, %w_h, %w_x, %x, %prev_h, %h2h.1, %next_h, %loss, %steps)"),
            std::string::npos)
      << r.out;
}

TEST_F(ScriptOutputs, EveryModeReturnsTheSameValues) {
  std::vector<YAML::Node> outputs;
  for (const char* mode : {"eager", "trace", "parse"}) {
    RunResult r = d2s({"run", kTextbook, "--mode", mode});
    ASSERT_EQ(r.code, 0) << mode << ": " << r.err;
    YAML::Node doc = YAML::Load(r.out);
    ASSERT_TRUE(doc["outputs"].IsSequence()) << r.out;
    ASSERT_EQ(doc["outputs"].size(), 9u) << mode << ":\n" << r.out;
    EXPECT_EQ(doc["outputs"][8].as<int>(), 1) << mode;  // steps
    outputs.push_back(doc["outputs"]);
  }
  // The loss (a 0-d tensor) agrees across the modes.
  for (size_t m = 1; m < outputs.size(); ++m) {
    EXPECT_NEAR(outputs[m][7]["data"][0].as<double>(), outputs[0][7]["data"][0].as<double>(), 1e-5);
  }
}

TEST_F(ScriptOutputs, AScriptWithoutAssignmentsHasNoOutputs) {
  file("p.py", "import torch\nprint(torch.ones(2).sum())\n");
  for (const char* mode : {"eager", "parse"}) {
    RunResult r = d2s({"run", "p.py", "--mode", mode});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("outputs: []"), std::string::npos) << mode << ": " << r.out;
  }
}

}  // namespace
