// Loop re-rolling of traces (convert/reroll.h): the unrolled loop becomes one
// prim::Loop with the traced trip count, the graph verifies and gives the unrolled
// trace's outputs; runs that do not repeat cleanly stay unrolled with a reason; a
// 100,000-node trace folds without deep recursion.
#include "convert/reroll.h"

#include <gtest/gtest.h>

#include "convert/run_graph.h"
#include "core/base/error.h"
#include "core/ir/printer.h"
#include "trace/tracer.h"

namespace d2s::convert {
namespace {

TraceResult trace(const std::string& text, const NamedInputs& inputs, bool guards = true) {
  auto file = std::make_shared<const SourceFile>("prog.py", text);
  Program program = Program::from_source(file);
  TraceOptions opts;
  opts.guards = guards;
  return trace_program(program, inputs, opts);
}

size_t count_kind(const ir::Graph& g, const std::string& kind) {
  size_t n = 0;
  std::vector<const ir::Block*> stack{g.block()};
  while (!stack.empty()) {
    const ir::Block* b = stack.back();
    stack.pop_back();
    for (const ir::Node* node : b->nodes()) {
      n += node->kind() == kind;
      for (const ir::Block* inner : node->blocks()) stack.push_back(inner);
    }
  }
  return n;
}

void expect_same_tensor(const IValue& a, const IValue& b) {
  ASSERT_TRUE(a.is_tensor() && b.is_tensor());
  const Tensor& x = a.to_tensor();
  const Tensor& y = b.to_tensor();
  ASSERT_EQ(x.shape(), y.shape());
  for (int64_t i = 0; i < x.numel(); ++i) EXPECT_EQ(x.value_at(i), y.value_at(i)) << i;
}

Tensor filled(const Shape& shape, float start, float step) {
  std::vector<float> data(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < data.size(); ++i) data[i] = start + step * static_cast<float>(i % 7);
  return Tensor::from_floats(shape, data);
}

const char* kRnn = R"(import torch
from torch import Tensor


def rnn(x: Tensor, h: Tensor, W: Tensor, U: Tensor, b: Tensor, steps: int):
    for i in range(steps):
        h = torch.tanh(x @ W + h @ U + b)
    return h
)";

TEST(Reroll, TenThousandStepRnnBecomesASmallLoopWithTheSameOutputs) {
  NamedInputs inputs = {{"x", filled({1, 16}, -0.5f, 0.1f)},  {"h", filled({1, 16}, 0.2f, 0.05f)},
                        {"W", filled({16, 16}, -0.3f, 0.1f)}, {"U", filled({16, 16}, 0.1f, -0.04f)},
                        {"b", filled({16}, 0.0f, 0.01f)},     {"steps", IValue(int64_t{10000})}};
  TraceResult traced = trace(kRnn, inputs);
  const size_t unrolled_nodes = traced.graph->node_count();
  EXPECT_GT(unrolled_nodes, 40000u);
  IValue unrolled_out = GraphRunner(*traced.graph, {}).run(inputs);

  RerollReport report = reroll_loops(*traced.graph, traced.log);
  ASSERT_EQ(report.folded.size(), 1u) << (report.kept.empty() ? "" : report.kept[0]);
  EXPECT_EQ(report.folded[0].trips, 10000);
  EXPECT_LT(traced.graph->node_count(), 50u) << ir::print_graph(*traced.graph);
  EXPECT_EQ(count_kind(*traced.graph, "prim::Loop"), 1u);
  // The trip count came from the scalar input `steps`: its guard is still there.
  EXPECT_GE(count_kind(*traced.graph, "prim::Guard"), 1u);
  IValue rolled_out = GraphRunner(*traced.graph, {}).run(inputs);
  expect_same_tensor(unrolled_out, rolled_out);
  expect_same_tensor(traced.eager_output, rolled_out);
}

TEST(Reroll, LoopIndexConstantsBecomeTheTripIndex) {
  const char* prog = R"(import torch
from torch import Tensor


def foo2(s: Tensor) -> Tensor:
    for i in range(10):
        s += 2 * i + 1
    return s
)";
  NamedInputs inputs = {{"s", filled({2, 3}, 0.5f, 1.0f)}};
  TraceResult traced = trace(prog, inputs);
  IValue unrolled_out = GraphRunner(*traced.graph, {}).run(inputs);
  RerollReport report = reroll_loops(*traced.graph, traced.log);
  ASSERT_EQ(report.folded.size(), 1u);
  EXPECT_EQ(report.folded[0].trips, 10);
  EXPECT_EQ(report.folded[0].from, Provenance::Constant);
  EXPECT_EQ(count_kind(*traced.graph, "aten::add_"), 1u) << ir::print_graph(*traced.graph);
  expect_same_tensor(unrolled_out, GraphRunner(*traced.graph, {}).run(inputs));
}

TEST(Reroll, AWhileLoopKeepsItsGuardInTheBody) {
  const char* prog = R"(import torch
from torch import Tensor


def grow(x: Tensor) -> Tensor:
    while x.sum() < 100.0:
        x = x * 2.0
    return x
)";
  NamedInputs inputs = {{"x", Tensor::from_floats({2}, {1.0f, 2.0f})}};
  TraceResult traced = trace(prog, inputs);
  const size_t guards_per_trip = count_kind(*traced.graph, "prim::Guard");
  IValue unrolled_out = GraphRunner(*traced.graph, {}).run(inputs);
  RerollReport report = reroll_loops(*traced.graph, traced.log);
  ASSERT_EQ(report.folded.size(), 1u) << (report.kept.empty() ? "" : report.kept[0]);
  EXPECT_EQ(report.folded[0].from, Provenance::Data);
  EXPECT_LT(count_kind(*traced.graph, "prim::Guard"), guards_per_trip);
  EXPECT_GE(count_kind(*traced.graph, "prim::Guard"), 2u);  // in the body, and the exit test
  expect_same_tensor(unrolled_out, GraphRunner(*traced.graph, {}).run(inputs));
  // Another input that takes another number of trips still fails a guard.
  NamedInputs other = {{"x", Tensor::from_floats({2}, {10.0f, 20.0f})}};
  try {
    GraphRunner(*traced.graph, {}).run(other);
    FAIL() << "expected a guard failure";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 1);
  }
}

TEST(Reroll, ABodyThatIsOneHelperCallFolds) {
  const char* prog = R"(import torch
from torch import Tensor


def step(h: Tensor) -> Tensor:
    return torch.tanh(h) * 0.5 + h


def run(x: Tensor) -> Tensor:
    for i in range(4):
        x = step(x)
    return x
)";
  NamedInputs inputs = {{"x", filled({3}, -1.0f, 0.5f)}};
  TraceResult traced = trace(prog, inputs);
  IValue unrolled_out = GraphRunner(*traced.graph, {}).run(inputs);
  RerollReport report = reroll_loops(*traced.graph, traced.log);
  ASSERT_EQ(report.folded.size(), 1u) << (report.kept.empty() ? "" : report.kept[0]);
  EXPECT_EQ(report.folded[0].trips, 4);
  EXPECT_EQ(count_kind(*traced.graph, "aten::tanh"), 1u);
  expect_same_tensor(unrolled_out, GraphRunner(*traced.graph, {}).run(inputs));
}

TEST(Reroll, ACarriedValueWhoseShapeChangesStaysUnrolled) {
  const char* prog = R"(import torch
from torch import Tensor


def double(x: Tensor) -> Tensor:
    for i in range(3):
        x = torch.cat([x, x])
    return x
)";
  TraceResult traced = trace(prog, {{"x", filled({1, 2}, 1.0f, 1.0f)}});
  const size_t before = traced.graph->node_count();
  RerollReport report = reroll_loops(*traced.graph, traced.log);
  EXPECT_TRUE(report.folded.empty());
  ASSERT_EQ(report.kept.size(), 1u);
  EXPECT_NE(report.kept[0].find("type changes"), std::string::npos) << report.kept[0];
  EXPECT_EQ(traced.graph->node_count(), before);
}

TEST(Reroll, AHundredThousandNodeTraceFolds) {
  const char* prog = R"(import torch
from torch import Tensor


def loop(x: Tensor, n: int):
    for i in range(n):
        x = x * 0.5 + 1.0
    return x
)";
  NamedInputs inputs = {{"x", filled({4}, 1.0f, 0.5f)}, {"n", IValue(int64_t{20000})}};
  TraceResult traced = trace(prog, inputs, /*guards=*/false);
  EXPECT_GE(traced.graph->node_count(), 100000u);
  IValue unrolled_out = GraphRunner(*traced.graph, {}).run(inputs);
  RerollReport report = reroll_loops(*traced.graph, traced.log);
  ASSERT_EQ(report.folded.size(), 1u);
  EXPECT_LT(traced.graph->node_count(), 20u);
  expect_same_tensor(unrolled_out, GraphRunner(*traced.graph, {}).run(inputs));
}

}  // namespace
}  // namespace d2s::convert
