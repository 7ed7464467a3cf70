// End-to-end tests of the two routes and graph execution in the d2s program: `d2s
// parse`, `d2s trace`, `d2s run --mode trace|parse`, `d2s run GRAPH.yaml`, every error
// they add, and the golden IR text of tests/golden/*.check (FileCheck-style lines).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

namespace fs = std::filesystem;

const std::string kRoot = D2S_SOURCE_DIR;

using d2s::test::RunResult;
using d2s::test::slurp;

std::string sample(const std::string& name) {
  return kRoot + "/samples/" + name + ".py";
}
std::string sample_inputs(const std::string& name) {
  return kRoot + "/samples/" + name + ".inputs.yaml";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

class Routes : public d2s::test::ScratchDirTest {
 protected:
  Routes() : ScratchDirTest("d2s_routes_test_") {}

  // Runs d2s with `args` (no shell interpretation of them), in the test's directory.
  RunResult d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(
        dir_, args, {.out = path(".stdout"), .err = path(".stderr"), .remove_after = true});
  }

  // `d2s run ARGS -o out.yaml` must succeed; returns the outputs file's text.
  std::string outputs(std::vector<std::string> args) const {
    fs::remove(path("out.yaml"));
    args.push_back("-o");
    args.push_back("out.yaml");
    RunResult r = d2s(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return slurp(path("out.yaml"));
  }
};

// ---------------------------------------------------------------------------
// parse and trace

TEST_F(Routes, ParsePrintsTheGraphWithAnIf) {
  RunResult r = d2s({"parse", sample("foo1")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("graph(%x : Tensor,", 0), 0u) << r.out;
  EXPECT_EQ(count(r.out, "prim::If("), 1u) << r.out;
  EXPECT_TRUE(has(r.out, "aten::square(%y)")) << r.out;
  EXPECT_FALSE(has(r.out, "prim::Guard")) << r.out;
}

TEST_F(Routes, ParseWithExampleInputsGivesSymbolicDims) {
  RunResult r = d2s({"parse", sample("rnn_cell"), "--inputs", sample_inputs("rnn_cell")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "%x : Tensor[x_0, x_1]")) << r.out;
  EXPECT_TRUE(has(r.out, "Tensor[w_h_0, prev_h_0] = aten::mm(%w_h")) << r.out;
}

TEST_F(Routes, TraceOfFoo1HasAGuardAndNoIf) {
  RunResult r = d2s({"trace", sample("foo1"), "--inputs", sample_inputs("foo1")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(has(r.out, "prim::If")) << r.out;
  EXPECT_TRUE(has(r.out, "prim::Guard[seen=True, expr=\"x < y\", what=\"bool\"]")) << r.out;
  EXPECT_TRUE(has(r.out, "aten::add(%x, %y")) << r.out;  // set 0 takes x + y
  EXPECT_FALSE(has(r.out, "aten::square")) << r.out;

  r = d2s({"trace", sample("foo1"), "--inputs", sample_inputs("foo1"), "--no-guards"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "prim::Guard")) << r.out;
  EXPECT_TRUE(has(r.out, "aten::add(%x, %y")) << r.out;
}

TEST_F(Routes, TraceHelpSaysTheFirstSetIsTraced) {
  RunResult r = d2s({"trace", "--help"});
  ASSERT_EQ(r.code, 0);
  EXPECT_TRUE(has(r.out, "the first set is traced")) << r.out;
  EXPECT_TRUE(has(r.out, "--max-trace-nodes")) << r.out;
  r = d2s({"run", "--help"});
  for (const char* f : {"--trace-inputs", "--no-guards", "--max-trace-nodes"}) {
    EXPECT_TRUE(has(r.out, f)) << f;
  }
  r = d2s({"parse", "--help"});
  for (const char* f : {"--inputs", "--weights", "--seed", "--eval"})
    EXPECT_TRUE(has(r.out, f)) << f;
}

TEST_F(Routes, TextOutputFileEqualsStdout) {
  RunResult printed = d2s({"parse", sample("foo2")});
  ASSERT_EQ(printed.code, 0) << printed.err;
  RunResult r = d2s({"parse", sample("foo2"), "-o", "g.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(path("g.txt")), printed.out);
  r = d2s({"trace", sample("foo2"), "--inputs", sample_inputs("foo2"), "-o", "t.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(slurp(path("t.txt")), "aten::add"), 10u);  // unrolled
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_FALSE(has(e.path().filename().string(), ".d2s-tmp")) << e.path();
  }
}

// ---------------------------------------------------------------------------
// graph files

TEST_F(Routes, GraphFilesRunLikeEager) {
  // foo1's set 0, written as a graph by both routes; then a module with default-
  // initialised parameters (--seed) and a sample with several outputs, parsed.
  std::string in = file("in.yaml",
                        "x: {shape: [1], data: [0.5]}\ny: {shape: [1], data: [1.5]}\n"
                        "z: {shape: [1], data: [0.0]}\n");
  std::string eager = outputs({"run", sample("foo1"), "--inputs", in});
  ASSERT_TRUE(has(eager, "data: [2.0]")) << eager;
  ASSERT_EQ(d2s({"parse", sample("foo1"), "-o", "parsed.yaml"}).code, 0);
  ASSERT_EQ(d2s({"trace", sample("foo1"), "--inputs", in, "-o", "traced.yaml"}).code, 0);
  EXPECT_EQ(outputs({"run", "parsed.yaml", "--inputs", in}), eager);
  EXPECT_EQ(outputs({"run", "traced.yaml", "--inputs", in}), eager);
  EXPECT_EQ(outputs({"run", sample("foo1"), "--inputs", in, "--mode", "trace"}), eager);
  EXPECT_EQ(outputs({"run", sample("foo1"), "--inputs", in, "--mode", "parse"}), eager);

  for (const std::string name : {"mlp", "item_arith"}) {
    std::string want =
        outputs({"run", sample(name), "--inputs", sample_inputs(name), "--seed", "3"});
    RunResult p = d2s({"parse", sample(name), "--seed", "3", "-o", "g.yaml"});
    ASSERT_EQ(p.code, 0) << p.err;
    EXPECT_EQ(outputs({"run", "g.yaml", "--inputs", sample_inputs(name), "--seed", "3"}), want)
        << name;
  }
}

TEST_F(Routes, GraphFileWithWeightsAndDumpWeights) {
  RunResult r = d2s({"run", sample("dynamic_model"), "--inputs", sample_inputs("dynamic_model"),
                     "--seed", "5", "--dump-weights", "w.yaml", "-o", "eager.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = d2s({"parse", sample("dynamic_model"), "-o", "g.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  // The weights of seed 5, given to a graph made with seed 0, give seed 5's outputs.
  std::string got = outputs({"run", "g.yaml", "--inputs", sample_inputs("dynamic_model"),
                             "--weights", "w.yaml", "--dump-weights", "w2.yaml"});
  EXPECT_EQ(got, slurp(path("eager.yaml")));
  EXPECT_EQ(slurp(path("w2.yaml")), slurp(path("w.yaml")));
}

TEST_F(Routes, BadGraphYamlIsLocated) {
  file("g.yaml",
       "format: d2s-ir\nversion: 1\nroute: parse\nentry: \"f\"\nsource: null\n"
       "inputs:\n  - {id: 0, name: \"x\", type: \"Tensor\"}\n"
       "nodes:\n  - {kind: \"aten::bogus\", inputs: [0], outputs: [{id: 1}], "
       "loc: {line: 1, col: 1}}\noutputs: [1]\n");
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  RunResult r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "g.yaml:9:5: error: invalid IR: unknown node kind 'aten::bogus'"))
      << r.err;
  EXPECT_EQ(r.out, "");
  file("g.yaml", "format: d2s-ir\nversion: 1\nroute: [parse\n");
  r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "g.yaml:")) << r.err;
}

TEST_F(Routes, GraphInputErrorsPointIntoTheInputsFile) {
  ASSERT_EQ(d2s({"parse", sample("foo1"), "-o", "g.yaml"}).code, 0);
  file("in.yaml", "x: {shape: [1], data: [1]}\nyy: {shape: [1], data: [1]}\nz: 3\n");
  RunResult r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "in.yaml:2:1: error: 'yy' is not an input of the graph 'foo1'")) << r.err;
  EXPECT_TRUE(has(r.err, "did you mean 'y'?")) << r.err;

  file("in.yaml", "x: {shape: [1], data: [1]}\ny: {shape: [1], data: [1]}\nz: 3\n");
  r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err,
                  "in.yaml:3:1: error: input 'z' (Tensor) of the graph 'foo1' is given "
                  "the int 3: it takes a tensor"))
      << r.err;

  file("in.yaml", "x: {shape: [1], data: [1]}\nz: {shape: [1], data: [1]}\n");
  r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "this input set has no 'y', input 'y' (Tensor) of the graph 'foo1'"))
      << r.err;
  EXPECT_TRUE(has(r.err, "add `y: {shape: [...], data: [...]}` to in.yaml")) << r.err;
}

TEST_F(Routes, GraphParametersNeedTheProgramOrWeights) {
  file("m.py",
       "import torch\nimport torch.nn as nn\n\nclass M(nn.Module):\n"
       "    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(3, 2)\n\n"
       "    def forward(self, x):\n        return self.lin(x)\n");
  file("in.yaml", "x: {shape: [1, 3], data: [1, 2, 3]}\n");
  ASSERT_EQ(d2s({"parse", "m.py", "-o", "g.yaml"}).code, 0);
  std::string eager = outputs({"run", "m.py", "--inputs", "in.yaml"});
  EXPECT_EQ(outputs({"run", "g.yaml", "--inputs", "in.yaml"}), eager);

  file("w.yaml", "lin.weight: {shape: [2, 3], fill: zeros}\nlin.bais: {shape: [2], fill: zeros}\n");
  RunResult r = d2s({"run", "g.yaml", "--inputs", "in.yaml", "--weights", "w.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err,
                  "w.yaml:2:1: error: 'lin.bais' is not a parameter of the graph "
                  "'M.forward'"))
      << r.err;
  EXPECT_TRUE(has(r.err, "did you mean 'lin.bias'?")) << r.err;

  fs::remove(path("m.py"));
  r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err,
                  "takes a parameter 'lin.weight' (Tensor[2, 3]) and its program 'm.py' "
                  "cannot be read"))
      << r.err;
  EXPECT_TRUE(has(r.err, "hint: give every parameter with --weights W.yaml")) << r.err;
}

// ---------------------------------------------------------------------------
// run --mode trace

TEST_F(Routes, TracedGraphFailsItsGuardOnTheOtherPath) {
  RunResult r = d2s({"run", sample("foo1"), "--inputs", sample_inputs("foo1"), "--mode", "trace",
                     "-o", "out.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err,
                  "foo1.py:9:8: error: trace guard failed: 'x < y' was True when traced, "
                  "is False now (on input set 1)"))
      << r.err;
  EXPECT_TRUE(has(r.err, "        if x < y:\n           ^~~~~")) << r.err;
  EXPECT_TRUE(has(r.err, "hint: this input takes a path the trace did not record")) << r.err;
  EXPECT_FALSE(fs::exists(path("out.yaml")));
}

TEST_F(Routes, TraceInputsPicksTheTracedSet) {
  file("set1.yaml",
       "x: {shape: [1], data: [2.0]}\ny: {shape: [1], data: [-1.5]}\nz: {shape: [1], data: [0]}\n");
  // Traced on set 1 (square(y)): set 1 runs, set 0 now fails its guard.
  std::string ok = outputs({"run", sample("foo1"), "--inputs", "set1.yaml", "--mode", "trace",
                            "--trace-inputs", "set1.yaml"});
  EXPECT_TRUE(has(ok, "data: [2.25]")) << ok;
  RunResult r = d2s({"run", sample("foo1"), "--inputs", sample_inputs("foo1"), "--mode", "trace",
                     "--trace-inputs", "set1.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "'x < y' was False when traced, is True now (on input set 0)")) << r.err;
}

TEST_F(Routes, NoGuardsGivesTheTracedBranchSilently) {
  std::string out = outputs(
      {"run", sample("foo1"), "--inputs", sample_inputs("foo1"), "--mode", "trace", "--no-guards"});
  YAML::Node doc = YAML::Load(out);
  ASSERT_EQ(doc.size(), 2u) << out;
  // Set 1 has x = 2, y = -1.5: eager gives square(y) = 2.25; the trace of set 0 still
  // computes the then-branch's x + y.
  EXPECT_EQ(doc[0]["outputs"][0]["data"][0].as<float>(), 0.5f + 1.5f);
  EXPECT_EQ(doc[1]["outputs"][0]["data"][0].as<float>(), 2.0f + -1.5f);
  std::string eager = outputs({"run", sample("foo1"), "--inputs", sample_inputs("foo1")});
  EXPECT_EQ(YAML::Load(eager)[1]["outputs"][0]["data"][0].as<float>(), 2.25f);
}

TEST_F(Routes, TraceLimitAndBadTraceInputs) {
  RunResult r = d2s({"run", sample("foo2"), "--inputs", sample_inputs("foo2"), "--mode", "trace",
                     "--max-trace-nodes", "5"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "foo2.py:")) << r.err;
  r = d2s({"trace", sample("foo2"), "--inputs", sample_inputs("foo2"), "--max-trace-nodes", "5"});
  EXPECT_EQ(r.code, 2);
  r = d2s({"trace", sample("foo2"), "--inputs", sample_inputs("foo2"), "--max-trace-nodes", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--max-trace-nodes")) << r.err;

  file("t.yaml", "s: {shape: [2], data: [1, 2]}\nq: 1\n");
  r = d2s({"run", sample("foo2"), "--inputs", sample_inputs("foo2"), "--mode", "trace",
           "--trace-inputs", "t.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "t.yaml:2:1: error: 'q' is not a parameter of the entry 'foo2'")) << r.err;
  r = d2s({"run", sample("foo2"), "--inputs", sample_inputs("foo2"), "--mode", "trace",
           "--trace-inputs", "nope.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "cannot read file 'nope.yaml'")) << r.err;
}

TEST_F(Routes, ListOfTensorsIsAnInputOfEveryRoute) {
  // An unannotated parameter given a list of tensors (an LSTM's (h, c)): the trace keeps
  // it a graph input, as torch.jit.trace does (a List input, prim::ListUnpack, guards on
  // its length and its tensors' ranks), and the parse route types it from the inputs
  // (List[Tensor], where TorchScript would take a Tensor and refuse the list).
  file("pair.py",
       "import torch\n"
       "def pair(x, state):\n"
       "    h, c = state\n"
       "    return x * h + c\n");
  file("two.yaml",
       "- x: {data: [1.0, 2.0]}\n"
       "  state: [{data: [3.0, 4.0]}, {data: [5.0, 6.0]}]\n"
       "- x: {data: [1.0, 1.0]}\n"
       "  state: [{data: [2.0, 2.0]}, {data: [0.5, 0.5]}]\n");
  RunResult r = d2s({"trace", "pair.py", "--inputs", "two.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "%state : List[AnyTensor]")) << r.out;
  EXPECT_TRUE(has(r.out, "prim::ListUnpack(%state)")) << r.out;
  EXPECT_TRUE(has(r.out, "expr=\"len(state)\", what=\"length\"")) << r.out;
  // Set 1's state is not set 0's: the trace must read it, not a baked constant.
  for (const char* mode : {"trace", "parse"}) {
    YAML::Node doc =
        YAML::Load(outputs({"run", "pair.py", "--inputs", "two.yaml", "--mode", mode}));
    ASSERT_EQ(doc.size(), 2u) << mode;
    EXPECT_EQ(doc[1]["outputs"][0]["data"][0].as<double>(), 2.5) << mode;
    EXPECT_EQ(doc[0]["outputs"][0]["data"][1].as<double>(), 14.0) << mode;
  }
  r = d2s({"parse", "pair.py", "--inputs", "two.yaml"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "%state : List[AnyTensor]")) << r.out;
  // Without inputs the parse route has no example: an unannotated parameter is a Tensor.
  r = d2s({"parse", "pair.py"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "cannot unpack a value of type Tensor in the parse route")) << r.err;
  // A third tensor in the list fails the trace's length guard (exit 1).
  file("three.yaml",
       "x: {data: [1.0, 2.0]}\n"
       "state: [{data: [3.0, 4.0]}, {data: [5.0, 6.0]}, {data: [7.0, 8.0]}]\n");
  r = d2s({"run", "pair.py", "--inputs", "three.yaml", "--trace-inputs", "two.yaml", "--mode",
           "trace"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "trace guard failed: 'len(state)' was 2 when traced, is 3 now")) << r.err;
}

TEST_F(Routes, CudaIsRefusedClearlyInEveryRoute) {
  // d2s runs on the CPU: .cuda() of a tensor or a module, and .to() of a CUDA device,
  // stop with exit 2 and a hint to choose the device with torch.cuda.is_available().
  file("one.yaml", "x: {data: [1.0, 2.0]}\n");
  file("tensor_cuda.py", "import torch\ndef f(x):\n    return x.cuda() * 2\n");
  file("module_to.py",
       "import torch\nimport torch.nn as nn\n"
       "class M(nn.Module):\n"
       "    def __init__(self):\n"
       "        super().__init__()\n"
       "        self.fc = nn.Linear(2, 1).to(\"cuda\")\n"
       "    def forward(self, x):\n"
       "        return self.fc(x)\n");
  for (const char* mode : {"eager", "trace"}) {
    RunResult r = d2s({"run", "tensor_cuda.py", "--inputs", "one.yaml", "--mode", mode});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(has(r.err,
                    "tensor_cuda.py:3:12: error: Tensor.cuda() is not supported: d2s runs "
                    "on the CPU"))
        << r.err;
    EXPECT_TRUE(has(r.err, "torch.cuda.is_available()")) << r.err;
  }
  for (const char* mode : {"eager", "trace", "parse"}) {
    RunResult r = d2s({"run", "module_to.py", "--inputs", "one.yaml", "--mode", mode});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(has(r.err, "error: Linear.to('cuda') is not supported: d2s runs on the CPU"))
        << r.err;
  }
}

TEST_F(Routes, ScalarInputsOfATrace) {
  // Traced with n = 2: n = 5 fails the input's guard; without guards n is baked and
  // ignored, as torch.jit.trace would.
  RunResult r = d2s({"run", sample("scalar_input"), "--inputs", sample_inputs("scalar_input"),
                     "--mode", "trace"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "trace guard failed: 'n' was 2 when traced, is 5 now (on input set 1)"))
      << r.err;
  std::string plain = outputs({"run", sample("scalar_input"), "--inputs",
                               sample_inputs("scalar_input"), "--mode", "trace", "--no-guards"});
  YAML::Node doc = YAML::Load(plain);
  ASSERT_EQ(doc.size(), 3u);
  // Every set gets the two steps with alpha 0.5 of set 0.
  EXPECT_EQ(YAML::Dump(doc[1]), YAML::Dump(doc[0]));
  EXPECT_EQ(YAML::Dump(doc[2]), YAML::Dump(doc[0]));
}

// ---------------------------------------------------------------------------
// run --mode parse on every sample

TEST_F(Routes, ParseModeEqualsEagerOnEverySample) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(kRoot + "/samples")) {
    if (e.path().extension() != ".py") continue;
    std::string name = e.path().stem().string();
    if (!fs::exists(sample_inputs(name))) continue;
    std::string eager = outputs({"run", sample(name), "--inputs", sample_inputs(name)});
    std::string parsed =
        outputs({"run", sample(name), "--inputs", sample_inputs(name), "--mode", "parse"});
    EXPECT_EQ(parsed, eager) << name;
    ++n;
  }
  EXPECT_GE(n, 19u);
}

// ---------------------------------------------------------------------------
// Errors of the new flags and paths

TEST_F(Routes, FlagsThatDoNotApplyAreRefused) {
  ASSERT_EQ(d2s({"parse", sample("foo1"), "-o", "g.yaml"}).code, 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", "g.yaml", "--inputs", sample_inputs("foo1"), "--mode", "parse"},
       "--mode applies to a model program, not to a graph file"},
      {{"run", "g.yaml", "--inputs", sample_inputs("foo1"), "--entry", "foo1"},
       "--entry applies to a model program"},
      {{"run", sample("foo1"), "--inputs", sample_inputs("foo1"), "--no-guards"},
       "--no-guards applies to --mode trace only"},
      {{"run", sample("foo1"), "--inputs", sample_inputs("foo1"), "--mode", "parse",
        "--trace-inputs", sample_inputs("foo1")},
       "--trace-inputs applies to --mode trace only"},
      {{"run", sample("foo1"), "--inputs", sample_inputs("foo1"), "--max-trace-nodes", "9"},
       "--max-trace-nodes applies to --mode trace only"},
      {{"run", "g.yaml", "--inputs", sample_inputs("foo1"), "--no-guards"},
       "--no-guards applies to --mode trace only"},
  };
  for (const auto& [args, message] : cases) {
    RunResult r = d2s(args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_TRUE(has(r.err, "d2s: error: " + message)) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(Routes, PicturesOfBothRoutes) {
  RunResult r = d2s({"parse", sample("foo1"), "-o", "g.svg"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(slurp(path("g.svg")), "<svg")) << slurp(path("g.svg"));
  r = d2s({"trace", sample("foo1"), "--inputs", sample_inputs("foo1"), "-o", "g.dot"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(slurp(path("g.dot")), "digraph")) << slurp(path("g.dot"));
  r = d2s({"trace", sample("foo1"), "--inputs", sample_inputs("foo1"), "-o", "g.jpg"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "unknown extension '.jpg'")) << r.err;
  EXPECT_FALSE(fs::exists(path("g.jpg")));
}

TEST_F(Routes, ConversionErrorsAreLocated) {
  // A program d2s cannot convert: the same located message from both routes.
  std::string bad = kRoot + "/samples/errors/rnn_textbook.py";
  for (const std::string cmd : {"parse", "trace"}) {
    std::vector<std::string> args = {cmd, bad};
    if (cmd == "trace") {
      file("in.yaml", "");
      args.insert(args.end(), {"--inputs", "in.yaml"});
    }
    RunResult r = d2s(args);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_TRUE(has(r.err, "rnn_textbook.py:")) << r.err;
    EXPECT_TRUE(has(r.err, "did you mean 'w_h'?")) << r.err;
    EXPECT_EQ(r.out, "") << cmd;
  }
  // parse --inputs: a key naming no parameter of the entry.
  file("in.yaml", "x: {shape: [1], data: [1]}\nw: {shape: [1], data: [1]}\n");
  RunResult r = d2s({"parse", sample("foo1"), "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "in.yaml:2:1: error: 'w' is not a parameter of the entry 'foo1'"))
      << r.err;
  // parse --weights: located at the key, as for run.
  file("w.yaml", "linear1.weight: {shape: [5, 10], fill: zeros}\n");
  r = d2s({"parse", sample("dynamic_model"), "--weights", "w.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "w.yaml: error: the weights file lacks parameter 'linear1.bias'"))
      << r.err;
  // trace: a missing input, and writing over an input.
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  r = d2s({"trace", sample("foo1"), "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "this input set has no 'y'")) << r.err;
  r = d2s({"trace", sample("foo1"), "--inputs", "in.yaml", "-o", "in.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "is one of the command's input files")) << r.err;
}

// ---------------------------------------------------------------------------
// Golden IR text: tests/golden/<sample>.check

// FileCheck in miniature over `text`: `# CHECK: s` matches the first later line
// holding s; `# CHECK-NEXT: s` the very next line; `# CHECK-SAME: s` the rest of
// the line matched last; `# CHECK-NOT: s` must not appear between the previous match
// and the next one (or the end). `# ARGS:` lines are the command's extra arguments.
::testing::AssertionResult file_check(const std::string& text, const std::string& pattern) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  size_t line = 0, col = 0;  // where the next search starts; line is past the last match
  bool matched = false;
  std::vector<std::string> nots;
  auto check_nots = [&](size_t from, size_t to) -> ::testing::AssertionResult {
    for (const auto& n : nots) {
      for (size_t i = from; i < to && i < lines.size(); ++i) {
        if (has(lines[i], n)) {
          return ::testing::AssertionFailure()
                 << "CHECK-NOT: '" << n << "' found on line " << i + 1 << ":\n"
                 << text;
        }
      }
    }
    nots.clear();
    return ::testing::AssertionSuccess();
  };
  std::istringstream pin(pattern);
  for (std::string p; std::getline(pin, p);) {
    std::string kind;
    for (const char* k : {"CHECK-NEXT:", "CHECK-SAME:", "CHECK-NOT:", "CHECK:"}) {
      if (p.rfind(std::string("# ") + k, 0) == 0) {
        kind = k;
        break;
      }
    }
    if (kind.empty()) continue;
    std::string what = p.substr(2 + kind.size());
    while (!what.empty() && what.front() == ' ') what.erase(what.begin());
    if (kind == "CHECK-NOT:") {
      nots.push_back(what);
      continue;
    }
    size_t found = lines.size(), at = 0;
    if (kind == "CHECK-SAME:") {
      if (matched && (at = lines[line - 1].find(what, col)) != std::string::npos) found = line - 1;
    } else if (kind == "CHECK-NEXT:") {
      if (matched && line < lines.size() && (at = lines[line].find(what)) != std::string::npos) {
        found = line;
      }
    } else {
      for (size_t i = line; i < lines.size(); ++i) {
        if ((at = lines[i].find(what)) != std::string::npos) {
          found = i;
          break;
        }
      }
    }
    if (found == lines.size()) {
      return ::testing::AssertionFailure()
             << kind << " '" << what << "' not matched after line " << line << " of:\n"
             << text;
    }
    auto r = check_nots(line, found);
    if (!r) return r;
    line = found + 1;
    col = at + what.size();
    matched = true;
  }
  return check_nots(line, lines.size());
}

TEST_F(Routes, GoldenParsedText) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(kRoot + "/tests/golden")) {
    if (e.path().extension() != ".check") continue;
    std::string name = e.path().stem().string();
    std::string pattern = slurp(e.path());
    std::vector<std::string> args = {"parse", sample(name)};
    std::istringstream pin(pattern);
    for (std::string p; std::getline(pin, p);) {
      if (p.rfind("# ARGS:", 0) != 0) continue;
      std::istringstream words(p.substr(7));
      for (std::string w; words >> w;)
        args.push_back(w.rfind("samples/", 0) == 0 ? kRoot + "/" + w : w);
    }
    RunResult r = d2s(args);
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    EXPECT_TRUE(file_check(r.out, pattern)) << name;
    ++n;
  }
  EXPECT_GE(n, 4u);
}

TEST_F(Routes, FileCheckItselfCatchesMismatches) {
  const std::string text = "a 1\nb 2\nc 3\n";
  EXPECT_TRUE(file_check(text, "# CHECK: a\n# CHECK-NEXT: b\n# CHECK-SAME: 2\n# CHECK: c"));
  EXPECT_FALSE(file_check(text, "# CHECK: a\n# CHECK-NEXT: c"));
  EXPECT_FALSE(file_check(text, "# CHECK: b\n# CHECK: a"));
  EXPECT_FALSE(file_check(text, "# CHECK: a\n# CHECK-NOT: b\n# CHECK: c"));
  EXPECT_TRUE(file_check(text, "# CHECK: c\n# CHECK-NOT: 3"));  // the matched line is past
  EXPECT_TRUE(file_check(text, "# CHECK: c\n# CHECK-NOT: a"));
  EXPECT_FALSE(file_check(text, "# CHECK: b 2\n# CHECK-SAME: 2"));
}

}  // namespace
