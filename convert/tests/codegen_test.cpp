// The code generator (convert/codegen.h): what it writes for each construct, that
// the parse route reads it back into a graph that runs like the original, the
// errors for what it cannot write, and graphs too deep or long for recursion.
#include "convert/codegen.h"

#include <gtest/gtest.h>

#include "convert/grad_graph.h"
#include "convert/lower.h"
#include "convert/run_graph.h"
#include "core/base/error.h"
#include "trace/tracer.h"

namespace d2s::convert {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Lowers `program`, writes it as code, lowers the code, and returns the code; both
// graphs must give the same outputs on `inputs`.
std::string round_trip(const std::string& program, const NamedInputs& inputs) {
  LoweredGraph g = lower_string(program);
  const std::string code = generate_python(*g.graph);
  LoweredGraph back = lower_string(code);
  IValue want = GraphRunner(*g.graph, {}).run(inputs);
  IValue got = GraphRunner(*back.graph, {}).run(inputs);
  EXPECT_EQ(want.repr(), got.repr()) << code;
  return code;
}

TEST(Codegen, IfBecomesIfElseWithLineComments) {
  const char* prog = R"(import torch
from torch import Tensor


def foo1(x: Tensor, y: Tensor) -> Tensor:
    if x.sum() < y.sum():
        s = x + y
    else:
        s = torch.square(y)
    return s
)";
  Tensor x = Tensor::from_floats({2}, {1, 2});
  Tensor y = Tensor::from_floats({2}, {3, 4});
  std::string code = round_trip(prog, {{"x", x}, {"y", y}});
  EXPECT_TRUE(has(code, "def foo1(x: torch.Tensor, y: torch.Tensor):")) << code;
  EXPECT_TRUE(has(code, "    if bool_1:  # line 6")) << code;
  EXPECT_TRUE(has(code, "        s_1 = x + y  # line 7")) << code;
  EXPECT_TRUE(has(code, "    else:\n")) << code;
  EXPECT_TRUE(has(code, "torch.square(y)")) << code;
  EXPECT_TRUE(has(code, "    return s\n")) << code;
  round_trip(prog, {{"x", y}, {"y", x}});
}

TEST(Codegen, ForRangeWhileAndCarriedValues) {
  const char* prog = R"(import torch
from torch import Tensor


def loops(s: Tensor, n: int) -> Tensor:
    for i in range(n):
        s = s + i
    k = 0
    while s.sum() < 100.0:
        s = s * 2.0
        k += 1
    print(k)
    return s
)";
  std::string code = round_trip(prog, {{"s", Tensor::from_floats({2}, {1, 2})}, {"n", IValue(3)}});
  EXPECT_TRUE(has(code, "for i in range(n):  # line 6")) << code;
  EXPECT_TRUE(has(code, "while go_on:")) << code;
  EXPECT_TRUE(has(code, "print(k")) << code;
}

// A dtype test, str methods, % formatting and round(x, n) are written as Python spells
// them: the graph's int dtype code would never equal Python's torch.dtype.
TEST(Codegen, DtypeTestsStrMethodsAndFormattingAsPython) {
  const char* prog = R"(import torch
from torch import Tensor


def f(x: Tensor):
    label = f" {int(x.sum().item())}_b "
    parts = label.strip().split("_")
    print("-".join(parts).upper(), "n=%d %.2f" % (len(parts), round(x.mean().item(), 1)))
    if x.dtype == torch.float32:
        return x + torch.iinfo(torch.int64).min
    return x
)";
  std::string code = round_trip(prog, {{"x", Tensor::from_floats({2}, {1, 2})}});
  EXPECT_TRUE(has(code, "== torch.float32")) << code;
  EXPECT_TRUE(has(code, ".strip()")) << code;
  EXPECT_TRUE(has(code, ".split('_')")) << code;
  EXPECT_TRUE(has(code, "'-'.join(")) << code;
  EXPECT_TRUE(has(code, "'n=%d %.2f' % ")) << code;
  EXPECT_TRUE(has(code, "round(")) << code;
  EXPECT_TRUE(has(code, "(-9223372036854775807 - 1)")) << code;
}

TEST(Codegen, AssertsAndGuards) {
  const char* prog = R"(import torch
from torch import Tensor


def f(x: Tensor) -> Tensor:
    assert x.dim() == 1, "x must be a vector"
    if x.sum() > 0:
        x = x * 2
    return x
)";
  std::string code = round_trip(prog, {{"x", Tensor::from_floats({2}, {1, 2})}});
  EXPECT_TRUE(has(code, "assert eq, 'x must be a vector'")) << code;

  auto file = std::make_shared<const SourceFile>("f.py", prog);
  Program program = Program::from_source(file);
  TraceResult traced = trace_program(program, {{"x", Tensor::from_floats({2}, {1, 2})}});
  std::string traced_code = generate_python(*traced.graph);
  EXPECT_TRUE(has(traced_code, "'x.sum() > 0' was True when traced")) << traced_code;
  EXPECT_TRUE(has(traced_code, "# guard, line 7")) << traced_code;
  // The rank guard: the trace baked x's rank, not its sizes.
  EXPECT_TRUE(has(traced_code, "assert dim == 1, \"trace guard: 'x' was 1 when traced (rank)\""))
      << traced_code;
  LoweredGraph back = lower_string(traced_code);
  EXPECT_EQ(GraphRunner(*back.graph, {}).run({{"x", Tensor::from_floats({2}, {1, 2})}}).repr(),
            traced.eager_output.repr());
}

TEST(Codegen, ABackwardGraphCallsPyTorchsDerivativeOfEachForwardOp) {
  LoweredGraph g = lower_string("import torch\n\ndef f(x):\n    return torch.tanh(x)\n");
  build_backward_graph(*g.graph);
  const std::string code = generate_python(*g.graph);
  EXPECT_TRUE(has(code, "def _d2s_vjp(fn, grads, args):")) << code;
  EXPECT_TRUE(has(code, "grads_tanh = _d2s_vjp(lambda a0: torch.tanh(a0), ")) << code;
}

TEST(Codegen, AGradientNodeWithoutItsForwardOpIsAClearError) {
  // grad::tanh's result argument must be the output of the op it differentiates.
  ir::Graph g;
  ir::Value* x = g.add_input("x", ir::Type::tensor());
  ir::Node* list = g.insert(ir::kind::ListConstruct, {x}, 1, SourceRange(nullptr, 1, 1));
  list->output()->set_type(ir::Type::list(ir::Type::any()));
  ir::Node* grad =
      g.insert("grad::tanh", {list->output(), list->output(), x}, 1, SourceRange(nullptr, 2, 1));
  grad->output()->set_type(ir::Type::list(ir::Type::any()));
  g.register_output(grad->output());
  try {
    generate_python(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.message(), "grad::tanh")) << e.message();
    EXPECT_EQ(e.exit_code(), 2);
  }
}

TEST(Codegen, DeepIfNestingAndLongGraphsNeedNoRecursion) {
  // 3,000 early returns nest 3,000 Ifs.
  std::string prog = "import torch\n\ndef f(x: int) -> int:\n";
  for (int i = 0; i < 3000; ++i) {
    prog += "    if x == " + std::to_string(i) + ":\n        return " + std::to_string(i) + "\n";
  }
  prog += "    return -1\n";
  LoweredGraph g = lower_string(prog);
  std::string code = generate_python(*g.graph);
  EXPECT_GT(code.size(), 3000u * 20);

  ir::Graph big;
  ir::Value* v = big.add_input("x", ir::Type::tensor());
  for (int i = 0; i < 100000; ++i) {
    ir::Node* n = big.insert("aten::neg", {v}, 1, SourceRange(nullptr, 1, 1));
    n->output()->set_type(ir::Type::tensor());
    v = n->output();
  }
  big.register_output(v);
  std::string long_code = generate_python(big);
  EXPECT_TRUE(has(long_code, "neg_99999 = -neg_99998")) << long_code.substr(0, 300);
}

}  // namespace
}  // namespace d2s::convert
