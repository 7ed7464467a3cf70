// Choosing the entry, binding inputs by parameter name, and programs of any length.
#include <sstream>

#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

const char* kTwoFunctions =
    "import torch\n"
    "from torch import Tensor\n"
    "print('top level runs first')\n"
    "def helper(x: Tensor) -> Tensor:\n"
    "    return x * 2\n"
    "def scalar_input(x: Tensor, w: Tensor, n: int, alpha: float = 0.5, flag: bool = True) -> "
    "Tensor:\n"
    "    h = x\n"
    "    for step in range(n):\n"
    "        h = alpha * h + (1 - alpha) * torch.tanh(h @ w)\n"
    "    return helper(h) if flag else h\n";

TEST(Entry, DefaultIsTheLastDefOrClassElseTheModule) {
  Program p = Program::from_string(kTwoFunctions);
  EntryInfo e = p.entry();
  EXPECT_EQ(e.kind, EntryInfo::Kind::Function);
  EXPECT_EQ(e.name, "scalar_input");
  ASSERT_EQ(e.params.size(), 5u);
  EXPECT_EQ(e.params[0].name, "x");
  EXPECT_EQ(e.params[0].annotation, "Tensor");
  EXPECT_EQ(e.params[2].annotation, "int");
  EXPECT_FALSE(e.params[2].has_default);
  EXPECT_TRUE(e.params[3].has_default);
  EXPECT_EQ(e.params[3].default_value->to_double(), 0.5);
  EXPECT_EQ(e.range.line, 6);

  EXPECT_EQ(p.entry("helper").name, "helper");
  EXPECT_EQ(p.entry("<module>").kind, EntryInfo::Kind::Module);
  EXPECT_EQ(Program::from_string("x = 1\nprint(x)\n").entry().kind, EntryInfo::Kind::Module);

  Error err("");
  try {
    p.entry("scalar_inpt");
  } catch (const Error& e2) {
    err = e2;
  }
  EXPECT_EQ(err.message(), "entry 'scalar_inpt' is not defined in model.py");
  EXPECT_EQ(err.hint(), "did you mean 'scalar_input'?");
}

TEST(Entry, InputsBindByNameWithDefaultsAndScalars) {
  NamedInputs in{
      {"w", floats({2, 2}, {0, 0, 0, 0})}, {"x", floats({1, 2}, {1, 2})}, {"n", IValue(2)}};
  std::ostringstream out;
  RunOptions opts;
  opts.out = &out;
  Program p = Program::from_string(kTwoFunctions);
  IValue y = p.run(in, opts);
  EXPECT_EQ(out.str(), "top level runs first\n");
  // h = 0.5 * h twice, then helper doubles it: x / 2.
  EXPECT_FLOAT_EQ(static_cast<float>(y.to_tensor().value_at(1)), 1.0f);

  NamedInputs with_alpha = in;
  with_alpha.emplace_back("alpha", IValue(1));  // an int where a float is annotated is fine
  with_alpha.emplace_back("flag", IValue(false));
  y = p.run(with_alpha, opts);
  EXPECT_FLOAT_EQ(static_cast<float>(y.to_tensor().value_at(1)), 2.0f);
}

TEST(Entry, InputErrorsNameTheParameter) {
  NamedInputs missing{{"x", floats({1, 2}, {1, 2})}, {"n", IValue(2)}};
  Error e = run_error(kTwoFunctions, missing);
  EXPECT_EQ(e.message(), "scalar_input needs the input 'w', but the inputs have only x, n");
  EXPECT_EQ(e.hint(), "add 'w' to the inputs file");
  EXPECT_EQ(e.range().line, 6);

  NamedInputs extra{{"x", floats({1, 2}, {1, 2})},
                    {"w", floats({2, 2}, {0, 0, 0, 0})},
                    {"n", IValue(1)},
                    {"alpah", IValue(0.1)}};
  Error f = run_error(kTwoFunctions, extra);
  EXPECT_EQ(
      f.message(),
      "input 'alpah' is not a parameter of scalar_input (its parameters: x, w, n, alpha, flag)");
  EXPECT_EQ(f.hint(), "did you mean 'alpha'?");

  NamedInputs wrong{
      {"x", floats({1, 2}, {1, 2})}, {"w", floats({2, 2}, {0, 0, 0, 0})}, {"n", IValue(1.5)}};
  Error g = run_error(kTwoFunctions, wrong);
  EXPECT_EQ(g.message(), "input 'n' of scalar_input is annotated int, but the inputs give a float");

  NamedInputs not_tensor{{"x", IValue(1)}, {"w", floats({2, 2}, {0, 0, 0, 0})}, {"n", IValue(1)}};
  EXPECT_EQ(run_error(kTwoFunctions, not_tensor).message(),
            "input 'x' of scalar_input is annotated Tensor, but the inputs give a int");

  Error m = run_error("print(1)\n", {{"x", IValue(1)}});
  EXPECT_EQ(m.message(), "the entry <module> takes no inputs, but the inputs have 'x'");
}

TEST(Entry, ClassEntryRunsForwardAndNeedsOne) {
  const char* src =
      "import torch.nn as nn\n"
      "class A(nn.Module):\n"
      "    def forward(self, x, k=3):\n"
      "        return x + k\n"
      "class B(A):\n"
      "    def helper(self):\n"
      "        return 0\n";
  EXPECT_EQ(run_value(src, {{"x", IValue(1)}}).to_int(), 4);
  Program p = Program::from_string(src);
  ASSERT_EQ(p.entry("B").params.size(), 2u);
  EXPECT_EQ(p.entry("B").params[0].name, "x");
  Error e = run_error(
      "import torch.nn as nn\nclass C(nn.Module):\n    def helper(self):\n        pass\n");
  EXPECT_EQ(e.message(), "class 'C' has no forward method");
  EXPECT_EQ(e.range().line, 2);
}

TEST(Entry, ModuleEntryReturnsTheNumbersAndTensorsItAssigns) {
  // Source order of first assignment; `s` (a str) and `i` (assigned only by the loop)
  // are not outputs, `x`'s value is its last.
  IValue v = run_value(
      "import torch\nx = 1\ny = x + 1\ns = 'a'\nfor i in range(2):\n    x = x + 10\n"
      "t = torch.ones(1)\n");
  EXPECT_EQ(v.repr(), "(21, 2, tensor([1.]))");
}

TEST(Entry, ModuleEntryWithoutAssignmentsReturnsAnEmptyTuple) {
  EXPECT_EQ(run_value("print(1)\n").repr(), "()");
}

TEST(Entry, ReturnsTorchSizeAsATuple) {
  IValue v = run_value("import torch\ndef f(x):\n    return x.shape, [x.size()]\n",
                       {{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_EQ(v.repr(), "((2, 3), [(2, 3)])");
}

TEST(Entry, FiftyThousandStatementsRunWithoutDeepRecursion) {
  std::string src = "x = 0\n";
  for (int i = 0; i < 50000; ++i) src += "x = x + 1\n";
  src += "print(x)\n";
  EXPECT_EQ(run_print(src), "50000\n");
}

}  // namespace
}  // namespace d2s::testing
