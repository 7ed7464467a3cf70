// End-to-end tests of the d2s program: run the built binary as a user does and
// check its exit code, standard output, standard error and files (docs/cli.md).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

namespace fs = std::filesystem;

using d2s::test::RunResult;
using d2s::test::slurp;

class Cli : public d2s::test::ScratchDirTest {
 protected:
  Cli() : ScratchDirTest("d2s_cli_test_") {}

  // Runs d2s with `args` (no shell interpretation of them), in the test's directory.
  RunResult d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(
        dir_, args, {.out = path(".stdout"), .err = path(".stderr"), .remove_after = true});
  }
};

const char* kDoubler =
    "import torch\n"
    "\n"
    "def double(x, n: int):\n"
    "    print(\"n is\", n)\n"
    "    return x * 2, n + 1\n";

const char* kModule =
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "class M(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.lin = nn.Linear(3, 2)\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.lin(x)\n";

// ---------------------------------------------------------------------------
// Usage

TEST_F(Cli, Version) {
  RunResult r = d2s({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "d2s 0.1.0\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, TopLevelHelpListsEveryCommand) {
  RunResult r = d2s({"--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* c : {"parse", "trace", "run", "diff", "render", "check", "grad"}) {
    EXPECT_NE(r.out.find(c), std::string::npos) << c;
  }
}

TEST_F(Cli, HelpOfEachCommand) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> flags = {
      {"parse", {"--entry", "--output"}},
      {"trace", {"--inputs", "--entry", "--weights", "--no-guards", "--seed", "--output"}},
      {"run",
       {"--inputs", "--mode", "--entry", "--weights", "--grad", "--seed", "--output",
        "--dump-weights", "--max-iterations", "--max-call-depth"}},
      {"diff", {"--inputs", "--entry", "--weights", "--format", "--seed", "--output"}},
      {"render", {"--entry", "--output"}},
      {"check", {"--inputs", "--entry", "--weights", "--format", "--seed", "--output"}},
      {"grad", {"--entry", "--output"}},
  };
  for (const auto& [cmd, names] : flags) {
    RunResult r = d2s({cmd, "--help"});
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find("d2s " + cmd), std::string::npos) << r.out;
    for (const auto& f : names) EXPECT_NE(r.out.find(f), std::string::npos) << cmd << " " << f;
  }
}

TEST_F(Cli, UnknownFlag) {
  RunResult r = d2s({"run", "m.py", "--bogus"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("d2s: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--bogus"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hint: see d2s run --help"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(Cli, MissingArgumentAndBadValues) {
  RunResult r = d2s({"run"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("d2s: error: INPUT is required"), std::string::npos) << r.err;
  r = d2s({"run", "m.py", "--mode", "fast"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--mode"), std::string::npos) << r.err;
  r = d2s({"run", "m.py", "--seed", "abc"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--seed"), std::string::npos) << r.err;
  r = d2s({"run", "m.py", "--seed"});
  EXPECT_EQ(r.code, 2);
  r = d2s({"trace", "m.py"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--inputs is required"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hint: see d2s trace --help"), std::string::npos) << r.err;
  r = d2s({"render", "g.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--output is required"), std::string::npos) << r.err;
}

TEST_F(Cli, OutputExtensionIsChecked) {
  RunResult r = d2s({"run", "m.py", "-o", "out.txt"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown extension '.txt'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(".yaml"), std::string::npos) << r.err;
  r = d2s({"render", "g.yaml", "-o", "pic.jpg"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(".svg, .png, .pdf, .dot"), std::string::npos) << r.err;
}

TEST_F(Cli, UnknownOrMissingCommand) {
  RunResult r = d2s({"trase", "m.py"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown command 'trase'"), std::string::npos) << r.err;
  r = d2s({});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a command is required"), std::string::npos) << r.err;
}

TEST_F(Cli, GradCommands) {
  file("m.py", kDoubler);
  file("in.yaml", "x: {shape: [1], data: [1.5], requires_grad: true}\nn: 1\n");
  // d(2x)/dx = 2, in every mode.
  for (const char* mode : {"eager", "trace", "parse"}) {
    RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml", "--grad", "--mode", mode});
    EXPECT_EQ(r.code, 0) << mode << r.err;
    EXPECT_NE(r.out.find("grads:\n  x: {shape: [1], dtype: float32, data: [2.0]}"),
              std::string::npos)
        << mode << r.out;
  }
  RunResult r = d2s({"grad", "m.py"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("grad::mul"), std::string::npos) << r.out;
  // The first output must be one float element.
  file("two.yaml", "x: {shape: [2], data: [1, 2], requires_grad: true}\nn: 1\n");
  r = d2s({"run", "m.py", "--inputs", "two.yaml", "--grad"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--grad needs the first output to be a float tensor of one element"),
            std::string::npos)
      << r.err;
}

// ---------------------------------------------------------------------------
// run

TEST_F(Cli, RunPrintsThenOutputsYaml) {
  file("m.py", kDoubler);
  file("in.yaml", "x: {shape: [2], data: [1, 2.5]}\nn: 3\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::string print = "n is 3\n";
  ASSERT_EQ(r.out.substr(0, print.size()), print);
  YAML::Node doc = YAML::Load(r.out.substr(print.size()));
  YAML::Node outs = doc["outputs"];
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(outs[0]["shape"].as<std::vector<int>>(), (std::vector<int>{2}));
  EXPECT_EQ(outs[0]["dtype"].as<std::string>(), "float32");
  EXPECT_EQ(outs[0]["data"].as<std::vector<float>>(), (std::vector<float>{2.f, 5.f}));
  EXPECT_EQ(outs[1].as<int>(), 4);
}

TEST_F(Cli, RunWithOutputFile) {
  file("m.py", kDoubler);
  file("in.yaml", "x: {shape: [2], data: [1, 2.5]}\nn: 3\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml", "-o", "out.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "n is 3\n");  // only the prints
  YAML::Node doc = YAML::LoadFile(path("out.yaml").string());
  EXPECT_EQ(doc["outputs"][1].as<int>(), 4);
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".d2s-tmp"), std::string::npos);
  }
}

TEST_F(Cli, RunSeveralInputSets) {
  file("m.py", kDoubler);
  file("in.yaml", "- {x: {shape: [1], data: [1]}, n: 1}\n- {x: {shape: [1], data: [-3]}, n: 2}\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml", "-o", "out.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "n is 1\nn is 2\n");
  YAML::Node doc = YAML::LoadFile(path("out.yaml").string());
  ASSERT_TRUE(doc.IsSequence());
  ASSERT_EQ(doc.size(), 2u);
  EXPECT_EQ(doc[1]["outputs"][0]["data"][0].as<float>(), -6.f);
  EXPECT_EQ(doc[1]["outputs"][1].as<int>(), 3);
}

TEST_F(Cli, RunScriptWithoutInputs) {
  file("s.py", "import torch\nx = torch.ones(2)\nprint(x.sum().item())\n");
  RunResult r = d2s({"run", "s.py"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "2.0\noutputs:\n  - {shape: [2], dtype: float32, data: [1.0, 1.0]}\n");
}

TEST_F(Cli, RunModuleDumpWeightsThenReload) {
  file("m.py", kModule);
  file("in.yaml", "x: {shape: [1, 3], data: [1, 2, 3]}\n");
  RunResult r1 = d2s({"run", "m.py", "--inputs", "in.yaml", "--seed", "5", "--dump-weights",
                      "w.yaml", "-o", "o1.yaml"});
  ASSERT_EQ(r1.code, 0) << r1.err;
  YAML::Node w = YAML::LoadFile(path("w.yaml").string());
  EXPECT_EQ(w["lin.weight"]["shape"].as<std::vector<int>>(), (std::vector<int>{2, 3}));
  EXPECT_EQ(w["lin.bias"]["shape"].as<std::vector<int>>(), (std::vector<int>{2}));
  // The dumped weights, loaded under another seed, give the same outputs.
  RunResult r2 = d2s({"run", "m.py", "--inputs", "in.yaml", "--seed", "9", "--weights", "w.yaml",
                      "-o", "o2.yaml"});
  ASSERT_EQ(r2.code, 0) << r2.err;
  EXPECT_EQ(slurp(path("o1.yaml")), slurp(path("o2.yaml")));
}

TEST_F(Cli, RunWeightsErrorPointsIntoWeightsFile) {
  file("m.py", kModule);
  file("in.yaml", "x: {shape: [1, 3], data: [1, 2, 3]}\n");
  file("w.yaml", "lin.weight: {shape: [2, 3], fill: zeros}\nlin.bais: {shape: [2], fill: zeros}\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml", "--weights", "w.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("w.yaml:2:1: error: 'lin.bais' is not a parameter"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("did you mean 'lin.bias'?"), std::string::npos) << r.err;
}

TEST_F(Cli, BadInputsYamlShowsLocationAndCaret) {
  file("m.py", kDoubler);
  file("in.yaml", "n: 3\nx: {shape: [2], data: [1, 2, 3]}\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("in.yaml:2:23: error: data has 3 values but shape [2] needs 2"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("    x: {shape: [2], data: [1, 2, 3]}\n"
                       "                          ^"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(Cli, YamlSyntaxErrorInInputs) {
  file("m.py", kDoubler);
  file("in.yaml", "x: {shape: [2], data: [1, 2]\nn: 3\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("in.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("YAML syntax error"), std::string::npos) << r.err;
}

TEST_F(Cli, UnknownInputNamePointsAtKey) {
  file("m.py", kDoubler);
  file("in.yaml", "x: {shape: [1], data: [1]}\nm: 3\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("in.yaml:2:1: error: 'm' is not a parameter of the entry 'double'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("did you mean 'n'?"), std::string::npos) << r.err;
}

TEST_F(Cli, MissingInputIsNamed) {
  file("m.py", kDoubler);
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("has no 'n'"), std::string::npos) << r.err;
  r = d2s({"run", "m.py"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("m.py:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("needs an input 'x'"), std::string::npos) << r.err;
}

TEST_F(Cli, MissingFiles) {
  file("m.py", kDoubler);
  RunResult r = d2s({"run", "m.py", "--inputs", "nope.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("d2s: error: cannot read file 'nope.yaml'"), std::string::npos) << r.err;
  r = d2s({"run", "nope.py"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot read file 'nope.py'"), std::string::npos) << r.err;
  r = d2s({"run", "m.txt"});
  EXPECT_EQ(r.code, 2);
}

TEST_F(Cli, FailingRunWritesNothingAndKeepsOldOutput) {
  file("bad.py", "import torch\n\ndef f(x):\n    print(\"before\")\n    return x + W\n");
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  RunResult r = d2s({"run", "bad.py", "--inputs", "in.yaml", "-o", "new.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.py:5:"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("new.yaml")));

  file("old.yaml", "previous contents\n");
  r = d2s({"run", "bad.py", "--inputs", "in.yaml", "-o", "old.yaml", "--dump-weights", "w.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(slurp(path("old.yaml")), "previous contents\n");
  EXPECT_FALSE(fs::exists(path("w.yaml")));
  size_t n = static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {}));
  EXPECT_EQ(n, 3u);  // bad.py, in.yaml, old.yaml: no temporaries
}

TEST_F(Cli, OutputDirectoryIsCheckedBeforeRunning) {
  file("m.py", kDoubler);
  file("in.yaml", "x: {shape: [1], data: [1]}\nn: 1\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml", "-o", "nodir/out.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("directory 'nodir' does not exist"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");  // the program did not run
}

TEST_F(Cli, LaterSetFailingWritesNothing) {
  file("m.py", kDoubler);
  file("in.yaml", "- {x: {shape: [1], data: [1]}, n: 1}\n- {x: {shape: [1], data: [1]}}\n");
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml", "-o", "out.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(path("out.yaml")));
}

TEST_F(Cli, InputFilesAreNeverModified) {
  std::string model = file("m.py", kDoubler);
  std::string inputs = file("in.yaml", "x: {shape: [2], data: [1, 2]}\nn: 3\n");
  auto before_m = slurp(model), before_i = slurp(inputs);
  auto time_i = fs::last_write_time(inputs);
  RunResult r = d2s({"run", "m.py", "--inputs", "in.yaml", "-o", "out.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
  // Writing the outputs over an input is refused.
  r = d2s({"run", "m.py", "--inputs", "in.yaml", "-o", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is one of the command's input files"), std::string::npos) << r.err;
  r = d2s({"run", "m.py", "--inputs", "in.yaml", "--dump-weights", "./in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(slurp(model), before_m);
  EXPECT_EQ(slurp(inputs), before_i);
  EXPECT_EQ(fs::last_write_time(inputs), time_i);
}

TEST_F(Cli, LimitFlags) {
  file("loop.py",
       "import torch\n\ndef f(n: int):\n    s = 0\n    while True:\n        s += 1\n"
       "    return s\n");
  file("in.yaml", "n: 1\n");
  RunResult r = d2s({"run", "loop.py", "--inputs", "in.yaml", "--max-iterations", "1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("loop.py:"), std::string::npos) << r.err;
  r = d2s({"run", "loop.py", "--max-iterations", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-iterations"), std::string::npos) << r.err;
  r = d2s({"run", "loop.py", "--max-call-depth", "100000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-call-depth"), std::string::npos) << r.err;
}

}  // namespace
