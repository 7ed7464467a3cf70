// End-to-end tests of `d2s diff` and `d2s check`: the built program on the samples,
// as a user and a CI job run it (docs/diff.md, docs/ci.md).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

namespace fs = std::filesystem;

using d2s::test::RunResult;
using d2s::test::shell_quote;
using d2s::test::slurp;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs in the source directory, so that paths read as a user's (samples/foo1.py).
class DiffCli : public d2s::test::ScratchDirTest {
 protected:
  DiffCli() : ScratchDirTest("d2s_diff_cli_") {}

  std::string tmp(const std::string& name) const { return path(name).string(); }

  RunResult d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(D2S_SOURCE_DIR, args,
                              {.out = tmp(".out"), .err = tmp(".err"), .remove_after = false});
  }
};

TEST_F(DiffCli, TextReportExitsZeroEvenWhenLossy) {
  RunResult r = d2s({"diff", "samples/foo1.py", "--inputs", "samples/foo1.inputs.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("samples/foo1.py: NOT TRACE-SAFE (entry foo1, 2 input sets)", 0), 0u)
      << r.out;
  EXPECT_TRUE(contains(r.out, "counterexample: set 1, as given")) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;

  // The first set alone loses the else side; the counterexample comes with it.
  const std::string first = file("first.yaml",
                                 "x: {shape: [1], data: [0.5]}\n"
                                 "y: {shape: [1], data: [1.5]}\n"
                                 "z: {shape: [1], data: [0.0]}\n");
  r = d2s({"diff", "samples/foo1.py", "--inputs", first});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("samples/foo1.py: NOT TRACE-SAFE (entry foo1, 1 input set)", 0), 0u)
      << r.out;
  EXPECT_TRUE(
      contains(r.out, "\nsamples/foo1.py:9:5: lost branch (lossy)\n     9 |     if x < y:\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "counterexample: set 0 with x * 10")) << r.out;
  EXPECT_TRUE(contains(r.out, "d2s run --mode parse")) << r.out;

  // A second --inputs file adds its sets: the trace of the first still lost the else
  // side, and the second set, which takes it, is the counterexample.
  const std::string second = file("second.yaml",
                                  "x: {shape: [1], data: [2.0]}\n"
                                  "y: {shape: [1], data: [-1.5]}\n"
                                  "z: {shape: [1], data: [0.0]}\n");
  r = d2s({"diff", "samples/foo1.py", "--inputs", first, "--inputs", second, "--format", "json"});
  EXPECT_EQ(r.code, 0) << r.err;
  YAML::Node j = YAML::Load(r.out);
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["kind"].as<std::string>(), "lost_branch");
  EXPECT_EQ(j["findings"][0]["counterexample"].as<int>(), 1);
  EXPECT_EQ(j["verdict"].as<std::string>(), "lossy");
  EXPECT_EQ(j["input_sets"].size(), 2u);
  EXPECT_EQ(j["input_sets"][1].as<std::string>(), second + ":1");
  EXPECT_EQ(j["coverage"]["ifs"][0]["sets"][1].as<std::string>(), "else");
}

TEST_F(DiffCli, JsonFileAndFormats) {
  const std::string out = tmp("report.json");
  RunResult r = d2s({"diff", "samples/rnn_cell.py", "--inputs", "samples/rnn_cell.inputs.yaml",
                     "-o", out, "--max-search-tries", "0"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  YAML::Node j = YAML::LoadFile(out);
  EXPECT_EQ(j["entry"].as<std::string>(), "rnn_cell");
  EXPECT_FALSE(j["trace_safe"].as<bool>());
  EXPECT_EQ(j["verdict"].as<std::string>(), "lossy");
  EXPECT_FALSE(j["agreement"][1]["agrees"].as<bool>());

  r = d2s({"diff", "samples/rnn_cell.py", "--inputs", "samples/rnn_cell.inputs.yaml", "--format",
           "json", "-o", tmp("report.txt")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--format json does not match -o")) << r.err;
  EXPECT_FALSE(fs::exists(tmp("report.txt")));

  r = d2s({"diff", "samples/rnn_cell.py", "--inputs", "samples/rnn_cell.inputs.yaml", "--format",
           "json", "-o", tmp("report.html")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--format json does not match -o")) << r.err;
  EXPECT_FALSE(fs::exists(tmp("report.html")));
}

TEST_F(DiffCli, PictureAndHtmlReport) {
  RunResult r = d2s({"diff", "samples/rnn_cell.py", "--inputs", "samples/rnn_cell.inputs.yaml",
                     "-o", tmp("diff.svg")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const std::string svg = slurp(tmp("diff.svg"));
  EXPECT_TRUE(contains(svg, "<svg")) << svg.substr(0, 200);
  EXPECT_TRUE(contains(svg, "LOST: set 1 takes it"));
  EXPECT_TRUE(contains(svg, "kept by the trace"));

  r = d2s(
      {"diff", "samples/foo2.py", "--inputs", "samples/foo2.inputs.yaml", "-o", tmp("diff.png")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(tmp("diff.png")).substr(0, 4), "\x89PNG");

  r = d2s({"diff", "samples/rnn_cell.py", "--inputs", "samples/rnn_cell.inputs.yaml", "-o",
           tmp("report.html")});
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string page = slurp(tmp("report.html"));
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(contains(page, "h2h.mean() &gt; w_x.mean()")) << "source escaped";
  EXPECT_TRUE(contains(page, "<table class=\"coverage\">"));
  EXPECT_TRUE(contains(page, "class=\"differs\""));
}

// The guarded trace guards only what it baked: view_batch's batch size flowed only into
// `x.view(x.size(0), -1)`, so its trace runs on the second set's batch size, and check's
// verdict is what the guarded trace does (issue 15: the trace stopped at a shape guard
// while check passed). A size that Python used stays guarded.
TEST_F(DiffCli, GuardedTraceRunsWhereCheckPasses) {
  RunResult r = d2s({"run", "samples/view_batch.py", "--inputs", "samples/view_batch.inputs.yaml",
                     "--mode", "trace"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "shape: [4]")) << r.out;  // set 1's argmax, batch 4
  r = d2s({"check", "samples/view_batch.py", "--inputs", "samples/view_batch.inputs.yaml"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  // A trace written to a file keeps that freedom.
  r = d2s({"trace", "samples/view_batch.py", "--inputs", "samples/view_batch.inputs.yaml", "-o",
           tmp("vb.yaml")});
  ASSERT_EQ(r.code, 0) << r.err;
  r = d2s({"run", tmp("vb.yaml"), "--inputs", "samples/view_batch.inputs.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;

  // range(x.shape[0]): the trip count is guarded; check fails, and so does the trace.
  r = d2s({"run", "samples/shape_loop.py", "--inputs", "samples/shape_loop.inputs.yaml", "--mode",
           "trace"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "trace guard failed: 'x.shape[0]' was 3 when traced, is 5 now"))
      << r.err;
  r = d2s({"check", "samples/shape_loop.py", "--inputs", "samples/shape_loop.inputs.yaml"});
  EXPECT_EQ(r.code, 1) << r.out;
  // The rank stays guarded.
  const std::string rank = file("rank.yaml",
                                "x: {shape: [24], fill: randn}\n"
                                "w: {shape: [12, 5], fill: randn}\n"
                                "b: {shape: [5], fill: randn}\n");
  r = d2s({"run", tmp("vb.yaml"), "--inputs", rank});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "'x' had 3 dimensions when traced, has 1 now")) << r.err;
}

// A program the parse route cannot run is an error of diff and check (exit 2, with the
// parse route's message), not a trace that "disagrees" (exit 1).
TEST_F(DiffCli, ParseRouteThatCannotRunIsExitTwo) {
  // An unannotated parameter takes its type from set 0 in the parse route (a list):
  // its graph cannot index set 1's tensor, which eager mode indexes too.
  const std::string model = file("scaled.py",
                                 "import torch\n\n\n"
                                 "def scaled(x, scales):\n"
                                 "    y = x * 2.0\n"
                                 "    return y * scales[0]\n");
  const std::string in = file("scaled.yaml",
                              "- x: {shape: [3], data: [1, 2, 3]}\n  scales: [2.0]\n"
                              "- x: {shape: [3], data: [1, 2, 3]}\n"
                              "  scales: {shape: [2], data: [2.0, 3.0]}\n");
  for (const char* cmd : {"diff", "check"}) {
    RunResult r = d2s({cmd, model, "--inputs", in});
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "scaled.py:6:16: error: __getitem__(): argument 'list'")) << r.err;
    EXPECT_TRUE(contains(r.err, "its parsed graph does not")) << r.err;
  }
}

TEST_F(DiffCli, MaxTraceNodesLimitsTheTrace) {
  RunResult r = d2s({"diff", "samples/foo2.py", "--inputs", "samples/foo2.inputs.yaml",
                     "--max-trace-nodes", "5"});
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.err, "trace exceeded 5 nodes")) << r.err;
  r = d2s({"check", "samples/foo2.py", "--inputs", "samples/foo2.inputs.yaml", "--max-trace-nodes",
           "5"});
  EXPECT_EQ(r.code, 2) << r.out;
  r = d2s({"check", "samples/foo2.py", "--inputs", "samples/foo2.inputs.yaml", "--max-trace-nodes",
           "1000"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

TEST_F(DiffCli, BadFlagValuesAreExitTwo) {
  const std::vector<std::string> base = {"samples/foo1.py", "--inputs", "samples/foo1.inputs.yaml"};
  for (const char* cmd : {"diff", "check"}) {
    for (const char* flag : {"--max-nodes", "--max-trace-nodes"}) {
      std::vector<std::string> args = {cmd};
      args.insert(args.end(), base.begin(), base.end());
      args.insert(args.end(), {flag, "0"});
      RunResult r = d2s(args);
      EXPECT_EQ(r.code, 2) << cmd << " " << flag;
      EXPECT_TRUE(contains(r.err, std::string("d2s: error: ") + flag +
                                      ": Value 0 not in range 1 to 9223372036854775807"))
          << r.err;
    }
  }
  // A picture's extension with a text format.
  RunResult r = d2s({"diff", "samples/foo1.py", "--inputs", "samples/foo1.inputs.yaml", "--format",
                     "text", "-o", tmp("x.svg")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--format text does not match -o ")) << r.err;
  EXPECT_FALSE(fs::exists(tmp("x.svg")));
}

TEST_F(DiffCli, BadInputIsExitTwo) {
  RunResult r = d2s({"diff", "samples/missing.py", "--inputs", "samples/foo1.inputs.yaml"});
  EXPECT_EQ(r.code, 2);
  const std::string bad = file("bad.py", "import torch\n\n\ndef f(x):\n    return W_h + x\n");
  const std::string in = file("in.yaml", "x: {shape: [1], data: [1.0]}\n");
  r = d2s({"diff", bad, "--inputs", in});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "NameError")) << r.err;
  r = d2s({"diff", "samples/foo1.py", "--inputs", in});  // y and z missing
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "in.yaml")) << r.err;
}

TEST_F(DiffCli, CheckExitCodes) {
  RunResult r = d2s({"check", "samples/mlp.py", "--inputs", "samples/mlp.inputs.yaml"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "PASS samples/mlp.py")) << r.out;
  EXPECT_TRUE(contains(r.out, "check: 1 model, 1 trace-safe, 0 lossy\n")) << r.out;

  r = d2s({"check", "samples/foo1.py", "--inputs", "samples/foo1.inputs.yaml"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "FAIL samples/foo1.py")) << r.out;

  r = d2s({"check", "samples/print_branch.py", "--inputs", "samples/print_branch.inputs.yaml"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "samples/print_branch.py:10:9: dropped_side_effect (lossy)"))
      << r.out;

  const std::string bad = file("bad.py", "import torch\n\n\ndef f(x):\n    return W_h + x\n");
  const std::string in = file("in.yaml", "x: {shape: [1], data: [1.0]}\n");
  r = d2s({"check", bad, "--inputs", in});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "NameError")) << r.err;

  r = d2s({"check", "samples/mlp.py", "--inputs", "samples/mlp.inputs.yaml", "--format", "html",
           "-o", tmp("report.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "--format html does not match -o")) << r.err;
  EXPECT_FALSE(fs::exists(tmp("report.json")));

  r = d2s(
      {"check", "samples/mlp.py", "--inputs", "samples/mlp.inputs.yaml", "-o", tmp("report.html")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "check: 1 model, 1 trace-safe, 0 lossy")) << r.out;
  EXPECT_TRUE(contains(slurp(tmp("report.html")), "d2s check: PASS"));
}

TEST_F(DiffCli, CheckSeveralModels) {
  // One --inputs per model, in order.
  RunResult r = d2s({"check", "samples/mlp.py", "samples/shape_loop.py", "samples/foo2.py",
                     "--inputs", "samples/mlp.inputs.yaml", "--inputs",
                     "samples/shape_loop.inputs.yaml", "--inputs", "samples/foo2.inputs.yaml"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "check: 3 models, 2 trace-safe, 1 lossy (1 finding)\n")) << r.out;
  // One file for all.
  r = d2s({"check", "samples/foo1.py", "samples/foo1.py", "--inputs", "samples/foo1.inputs.yaml"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "check: 2 models")) << r.out;
  // Otherwise the pairing is ambiguous.
  r = d2s({"check", "samples/mlp.py", "samples/foo1.py", "samples/foo2.py", "--inputs",
           "samples/mlp.inputs.yaml", "--inputs", "samples/foo1.inputs.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "3 models but 2 --inputs files")) << r.err;
}

TEST_F(DiffCli, CheckGithubAnnotations) {
  RunResult r = d2s({"check", "samples/print_branch.py", "samples/foo2.py", "--inputs",
                     "samples/print_branch.inputs.yaml", "--inputs", "samples/foo2.inputs.yaml",
                     "--format", "github"});
  EXPECT_EQ(r.code, 1) << r.err;
  std::istringstream in(r.out);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  const std::regex finding(
      R"(::(warning|notice) file=samples/[a-z_0-9]+\.py,line=[0-9]+,col=[0-9]+,title=d2s [a-z_]+ \((lossy|info)\)::.+)");
  EXPECT_TRUE(std::regex_match(lines[0], finding)) << lines[0];
  // The trace of set 0 lost the if's other side (set 1 takes it) and dropped a print.
  EXPECT_EQ(lines[0].rfind("::warning file=samples/print_branch.py,line=9,col=5,", 0), 0u)
      << lines[0];
  EXPECT_TRUE(std::regex_match(lines[1], finding)) << lines[1];
  EXPECT_EQ(lines[1].rfind("::warning file=samples/print_branch.py,line=10,col=9,", 0), 0u)
      << lines[1];
  // The disagreement on set 1: where the guarded trace stopped (print_branch's if).
  EXPECT_EQ(lines[2].rfind("::warning file=samples/print_branch.py,line=9,title=", 0), 0u)
      << lines[2];
  EXPECT_EQ(lines[3].rfind("::notice file=samples/foo2.py,line=9,col=5,", 0), 0u) << lines[3];
  EXPECT_EQ(lines[4], "check: 2 models, 1 trace-safe, 1 lossy (2 findings)");
}

TEST_F(DiffCli, CheckJUnitFile) {
  const std::string xml = tmp("check.xml");
  RunResult r =
      d2s({"check", "samples/mlp.py", "samples/while_converge.py", "--inputs",
           "samples/mlp.inputs.yaml", "--inputs", "samples/while_converge.inputs.yaml", "-o", xml});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out, "check: 2 models, 1 trace-safe, 1 lossy (1 finding)\n");
  const std::string text = slurp(xml);
  EXPECT_TRUE(contains(text, "<testsuites name=\"d2s check\" tests=\"2\" failures=\"1\"")) << text;
  EXPECT_TRUE(contains(text, "<testcase classname=\"d2s.check\" name=\"samples/mlp.py\"")) << text;
  EXPECT_TRUE(contains(text, "<failure type=\"unrolled_loop\"")) << text;
  // A real XML parser: Debian's python3 (scripts/setup.sh installs it with python3-torch).
  const std::string cmd =
      "/usr/bin/python3 -c 'import sys, xml.dom.minidom as m; "
      "d = m.parse(sys.argv[1]); "
      "sys.exit(0 if len(d.getElementsByTagName(\"testcase\")) == 2 and "
      "len(d.getElementsByTagName(\"failure\")) == 2 else 3)' " +
      shell_quote(xml);
  EXPECT_EQ(std::system(cmd.c_str()), 0) << text;
  // --format junit to stdout; a JSON file by its extension.
  r = d2s({"check", "samples/mlp.py", "--inputs", "samples/mlp.inputs.yaml", "--format", "junit"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 0), 0u);
  r = d2s(
      {"check", "samples/mlp.py", "--inputs", "samples/mlp.inputs.yaml", "-o", tmp("check.json")});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(YAML::LoadFile(tmp("check.json"))["passed"].as<bool>());
}

}  // namespace
