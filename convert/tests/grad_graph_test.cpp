// The static backward graph (convert/grad_graph.h): it verifies, runs on the
// executor, and gives the gradients the run-time tape gives, for straight-line
// code, an If (both arms), a module's parameters and the samples; a Loop is a clear
// error.
#include "convert/grad_graph.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "convert/lower.h"
#include "convert/run_graph.h"
#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/io/yaml_io.h"
#include "core/ir/printer.h"

namespace d2s::convert {
namespace {

Tensor t(const Shape& shape, const std::vector<float>& data) {
  return Tensor::from_floats(shape, data);
}

LoweredGraph lower_any(const std::string& program_or_path) {
  if (program_or_path.find('\n') == std::string::npos) return lower_file(program_or_path);
  return lower_string(program_or_path);
}

// Gradients by graph-input name: the tape's (GraphRunOptions::grad on the forward,
// backward() of the first output's sum) against the static graph's outputs 1.. (on
// a fresh lowering of the same program).
void expect_same_gradients(const std::string& program, const NamedInputs& inputs) {
  LoweredGraph forward = lower_any(program);
  GraphRunOptions tape_opts;
  tape_opts.grad = true;
  tape_opts.parameters = forward.parameters;
  GraphRunner taped(*forward.graph, tape_opts);
  NamedInputs marked;
  for (const auto& [name, v] : inputs) {
    IValue copy = v;
    if (v.is_tensor() && v.to_tensor().dtype() == DType::Float32) {
      Tensor c = v.to_tensor().clone();
      c.set_requires_grad(true);
      copy = IValue(c);
    }
    marked.emplace_back(name, copy);
  }
  IValue ran = taped.run(marked);
  IValue first = ran.is_tuple() ? ran.tuple_items()[0] : ran;
  std::vector<std::pair<std::string, IValue>> tape;
  // What a backward() in the program accumulated (a parsed aten::backward) is not
  // part of d(first output)/d(leaf).
  for (auto [name, leaf] : taped.grad_leaves()) clear_grad(leaf);
  if (first.is_tensor() && first.to_tensor().requires_grad()) {
    OpContext ctx;
    backward(OpRegistry::builtin().call(ctx, "aten::sum", {first}, {}, SourceRange()).to_tensor());
  }
  for (const auto& [name, leaf] : taped.grad_leaves()) {
    tape.emplace_back(name, grad_of(leaf).defined() ? IValue(grad_of(leaf)) : IValue());
  }

  LoweredGraph lowered = lower_any(program);
  build_backward_graph(*lowered.graph);
  SCOPED_TRACE(ir::print_graph(*lowered.graph));
  GraphRunOptions opts;
  opts.parameters = lowered.parameters;
  IValue out = GraphRunner(*lowered.graph, opts).run(inputs);
  ASSERT_TRUE(out.is_tuple());
  const ValueList& items = out.tuple_items();
  size_t k = 1;
  for (const ir::Value* in : lowered.graph->inputs()) {
    if (in->type().is_tensor() && in->type().dtype && *in->type().dtype != DType::Float32) continue;
    ASSERT_LT(k, items.size());
    // An int64 index input (lstm_lm's tokens) that the parse route, given no example
    // inputs, typed as a float tensor: the graph has an output for it, the tape no leaf.
    auto given = std::find_if(inputs.begin(), inputs.end(),
                              [&](const auto& kv) { return kv.first == in->debug_name(); });
    if (given != inputs.end() && given->second.is_tensor() &&
        given->second.to_tensor().dtype() != DType::Float32) {
      ++k;
      continue;
    }
    const Tensor& got = items[k++].to_tensor();
    auto it = std::find_if(tape.begin(), tape.end(),
                           [&](const auto& kv) { return kv.first == in->debug_name(); });
    ASSERT_NE(it, tape.end()) << in->debug_name();
    for (int64_t i = 0; i < got.numel(); ++i) {
      const double want = it->second.is_tensor() ? it->second.to_tensor().value_at(i) : 0.0;
      EXPECT_NEAR(got.value_at(i), want, 1e-5) << in->debug_name() << "[" << i << "]";
    }
  }
  EXPECT_EQ(k, items.size());
}

TEST(GradGraph, StraightLine) {
  expect_same_gradients(
      "import torch\n"
      "def f(x, w):\n"
      "    h = torch.tanh(torch.mm(x, w))\n"
      "    return (h * h + x.sum()).mean(), h\n",
      {{"x", IValue(t({2, 3}, {0.1f, -0.2f, 0.3f, 0.4f, -0.5f, 0.6f}))},
       {"w", IValue(t({3, 2}, {0.5f, -0.1f, 0.2f, 0.3f, -0.4f, 0.6f}))}});
}

TEST(GradGraph, BothArmsOfAnIf) {
  const char* program =
      "import torch\n"
      "def f(x, y):\n"
      "    h = x * y\n"
      "    if h.sum() > 0:\n"
      "        h = torch.tanh(h) + x\n"
      "    else:\n"
      "        h = h * h\n"
      "    return h.sum()\n";
  expect_same_gradients(
      program, {{"x", IValue(t({2}, {0.5f, 0.7f}))}, {"y", IValue(t({2}, {1.5f, -0.3f}))}});
  expect_same_gradients(
      program, {{"x", IValue(t({2}, {-0.5f, 0.7f}))}, {"y", IValue(t({2}, {1.5f, -0.3f}))}});
}

TEST(GradGraph, ModuleParameters) {
  expect_same_gradients(
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.lin = nn.Linear(3, 2)\n"
      "    def forward(self, x):\n"
      "        return torch.relu(self.lin(x)).sum()\n",
      {{"x", IValue(t({2, 3}, {0.1f, -0.2f, 0.3f, 0.4f, -0.5f, 0.6f}))}});
}

// Every sample and input set whose parsed graph has a static backward graph (no
// loop on the gradient's path).
TEST(GradGraph, SamplesMatchTheTape) {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(std::string(D2S_SOURCE_DIR) + "/samples")) {
    const fs::path path = entry.path();
    if (path.extension() != ".py") continue;
    SCOPED_TRACE(path.string());
    try {
      LoweredGraph g = lower_file(path.string());
      build_backward_graph(*g.graph);
    } catch (const Error& e) {
      EXPECT_NE(e.message().find("prim::Loop is not supported yet"), std::string::npos)
          << e.message();
      continue;
    }
    fs::path inputs = path;
    inputs.replace_extension(".inputs.yaml");
    for (const InputSet& set : load_input_sets(inputs.string(), 0).sets) {
      NamedInputs named;
      for (const NamedInput& in : set.values) named.emplace_back(in.name, in.value);
      expect_same_gradients(path.string(), named);
      ++checked;
    }
  }
  EXPECT_GE(checked, 15);
}

TEST(GradGraph, LoopIsNotSupportedYet) {
  LoweredGraph g = lower_string(
      "import torch\n"
      "def f(x, n: int):\n"
      "    for i in range(n):\n"
      "        x = x * 2\n"
      "    return x.sum()\n");
  try {
    build_backward_graph(*g.graph);
    FAIL() << "a loop";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("prim::Loop is not supported yet"), std::string::npos);
    EXPECT_EQ(e.range().line, 3);
    EXPECT_EQ(e.exit_code(), 2);
  }
}

}  // namespace
}  // namespace d2s::convert
