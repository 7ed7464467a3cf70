// Python and PyTorch value semantics in the parse route (issue 15 items 2, 5 and 9):
// module state __init__ sets, `and`/`or` values, and dead code that may raise. The
// live comparisons with PyTorch are tests/parity/semantics/ (ctest parity_semantics*).
#include <gtest/gtest.h>

#include <string>

#include "convert/lower.h"
#include "convert/run_graph.h"
#include "core/base/error.h"
#include "core/ir/printer.h"

namespace d2s::convert {
namespace {

Tensor floats(const Shape& shape, const std::vector<float>& data) {
  return Tensor::from_floats(shape, data);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kFrozen = R"(import torch
import torch.nn as nn


class Frozen(nn.Module):
    def __init__(self):
        super().__init__()
        self.training = False
        self.scale = 3.0

    def forward(self, x):
        if self.training:
            return x * 0.0
        return x * self.scale
)";

// __init__'s `self.training = False` stands (it was overridden by the default
// training flag), and --eval (training = false) keeps eval mode.
TEST(Semantics, InitSetsTrainingFalse) {
  for (bool training : {true, false}) {
    LowerOptions o;
    o.training = training;
    LoweredGraph g = lower_string(kFrozen, o);
    IValue out = run_graph(*g.graph, {{"x", IValue(floats({2}, {1.0f, -2.0f}))}});
    ASSERT_TRUE(out.is_tensor());
    EXPECT_FLOAT_EQ(static_cast<float>(out.to_tensor().value_at(0)), 3.0f) << training;
    EXPECT_FLOAT_EQ(static_cast<float>(out.to_tensor().value_at(1)), -6.0f) << training;
  }
}

// `a and b` is b when a is truthy, else a itself; `a or b` the other way round.
TEST(Semantics, AndOrGiveAnOperand) {
  LoweredGraph g = lower_string(
      "import torch\n\ndef f(x, y):\n    return x.sum() > 0 and y, x.sum() > 0 or y\n");
  IValue out = run_graph(*g.graph, {{"x", IValue(floats({2}, {1.0f, 2.0f}))},
                                    {"y", IValue(floats({2}, {5.0f, 6.0f}))}});
  ASSERT_TRUE(out.is_tuple());
  const Tensor& a = out.tuple_items()[0].to_tensor();
  const Tensor& b = out.tuple_items()[1].to_tensor();
  EXPECT_EQ(a.dtype(), DType::Float32);  // y itself
  EXPECT_EQ(a.value_at(1), 6.0);
  EXPECT_EQ(b.dtype(), DType::Bool);  // the comparison itself
  EXPECT_EQ(b.dim(), 0);

  LoweredGraph n = lower_string("def f(n: int):\n    return n and 7, n or 5\n");
  IValue zero = run_graph(*n.graph, {{"n", IValue(int64_t{0})}});
  EXPECT_EQ(zero.tuple_items()[0].to_int(), 0);
  EXPECT_EQ(zero.tuple_items()[1].to_int(), 5);
  IValue three = run_graph(*n.graph, {{"n", IValue(int64_t{3})}});
  EXPECT_EQ(three.tuple_items()[0].to_int(), 7);
  EXPECT_EQ(three.tuple_items()[1].to_int(), 3);
}

// An unused op that may raise is kept, and raises when run; one proven unable to
// raise (its inputs' shapes are known and it runs on them) is dropped.
TEST(Semantics, DeadCodeThatMayRaiseIsKept) {
  LoweredGraph g =
      lower_string("import torch\n\ndef f(x):\n    y = x * 2\n    y.item()\n    return y\n");
  EXPECT_TRUE(has(ir::print_graph(*g.graph), "aten::item")) << ir::print_graph(*g.graph);
  try {
    run_graph(*g.graph, {{"x", IValue(floats({2}, {1.0f, 2.0f}))}});
    ADD_FAILURE() << "the unused item() of two elements did not raise";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.message(), "2 elements cannot be converted")) << e.message();
    EXPECT_EQ(e.range().line, 5);
  }

  LoweredGraph bad = lower_string(
      "import torch\n\ndef f():\n    z = torch.ones(2, 3) + torch.ones(4)\n    return 1\n");
  EXPECT_TRUE(has(ir::print_graph(*bad.graph), "aten::add")) << ir::print_graph(*bad.graph);

  LoweredGraph fine = lower_string(
      "import torch\n\ndef f():\n    z = torch.ones(2, 3) + torch.ones(3)\n    return 1\n");
  EXPECT_FALSE(has(ir::print_graph(*fine.graph), "aten::add")) << ir::print_graph(*fine.graph);
}

// A script's `if` on a many-element tensor raises although nothing reads what the
// script computes afterwards (the aten::Bool stays).
TEST(Semantics, ScriptIfOnManyElementsRaises) {
  LoweredGraph g = lower_string(
      "import torch\n\nw = torch.ones(2, 3)\nh = torch.zeros(2, 1)\nif h > w:\n"
      "    h = h + 1\nloss = h.tanh().sum()\n");
  try {
    run_graph(*g.graph, NamedInputs{});
    ADD_FAILURE() << "no error\n" << ir::print_graph(*g.graph);
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.message(), "ambiguous")) << e.message();
    EXPECT_EQ(e.range().line, 5);
  }
}

// loss.backward() is an aten::backward node the executor runs: a script ending in it
// keeps its computation, and the leaves' .grad is what eager mode gives.
TEST(Semantics, BackwardIsKeptAndRun) {
  LoweredGraph g = lower_string(
      "import torch\n\nw = torch.ones(2, requires_grad=True)\nloss = (w * w).tanh().sum()\n"
      "loss.backward()\n");
  const std::string text = ir::print_graph(*g.graph);
  EXPECT_TRUE(has(text, "aten::backward")) << text;
  EXPECT_TRUE(has(text, "aten::tanh")) << text;
  EXPECT_NO_THROW(run_graph(*g.graph, NamedInputs{}));

  // Without requires_grad, backward() raises as in PyTorch: the node ran.
  LoweredGraph bad =
      lower_string("import torch\n\nw = torch.ones(2)\nloss = (w * w).sum()\nloss.backward()\n");
  try {
    run_graph(*bad.graph, NamedInputs{});
    ADD_FAILURE() << "backward() of a tensor that does not require grad did not raise";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.message(), "does not require grad")) << e.message();
    EXPECT_EQ(e.range().line, 5);
  }
}

}  // namespace
}  // namespace d2s::convert
