// Every error the interpreter gives: Python's exception and wording, at the right
// range, with a hint where one helps; and the limits that keep any program finite.
#include <chrono>

#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

// The textbook's RNN script (AISystem, dynamic/static graph conversion), as written.
const char* kTextbookRnn =
    "import torch\n"
    "w_h = torch.randn(20, 20, requires_grad=True)\n"
    "w_x = torch.randn(20, 10, requires_grad=True)\n"
    "x = torch.rand(1, 10)\n"
    "prev_h = torch.randn(1, 20)\n"
    "\n"
    "h2h = torch.mm(W_h, prev_h.t())\n"
    "if h2h > w_x:\n"
    "    i2h = torch.mm(w_x, x.t())\n"
    "    h2h = h2h + i2h\n"
    "next_h = h2h.tanh()\n"
    "\n"
    "loss = next_h.sum()\n"
    "loss.backward()\n";

TEST(Errors, NameErrorSuggestsTheClosestName) {
  Error e = run_error(kTextbookRnn);
  EXPECT_EQ(e.message(), "NameError: name 'W_h' is not defined");
  EXPECT_EQ(e.hint(), "did you mean 'w_h'?");
  EXPECT_EQ(e.range().line, 7);
  EXPECT_EQ(e.range().col, 16);
  EXPECT_EQ(e.range().len, 3);
  // Far from every visible name: no suggestion.
  EXPECT_EQ(run_error("a = 1\nprint(zzzzzz)").hint(), "");
}

TEST(Errors, BoolOfAMultiElementTensorIsAmbiguous) {
  std::string fixed = kTextbookRnn;
  fixed.replace(fixed.find("W_h"), 3, "w_h");
  Error e = run_error(fixed);
  EXPECT_EQ(e.message(),
            "RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
  EXPECT_EQ(e.range().line, 8);
  EXPECT_EQ(e.range().col, 4);
  EXPECT_EQ(
      e.hint(),
      "`h2h > w_x` is a tensor of shape [20, 10]; use (h2h > w_x).any() or (h2h > w_x).all(), or "
      "reduce with .sum() first");
  EXPECT_EQ(run_error("import torch\nwhile torch.ones(2):\n    pass\n").range().line, 2);
  EXPECT_EQ(run_error("import torch\nb = torch.zeros(0) and 1\n").message(),
            "RuntimeError: Boolean value of Tensor with no values is ambiguous");
}

TEST(Errors, BackwardNeedsATensorThatRequiresGrad) {
  // The textbook's script with its names fixed runs to loss.backward(); without
  // requires_grad=True there is nothing to differentiate, as PyTorch says.
  std::string fixed = kTextbookRnn;
  fixed.replace(fixed.find("W_h"), 3, "w_h");
  fixed.replace(fixed.find("if h2h > w_x:"), 13, "if h2h.mean() > w_x.mean():");
  for (size_t at; (at = fixed.find(", requires_grad=True")) != std::string::npos;) {
    fixed.erase(at, 20);
  }
  Error e = run_error(fixed);
  EXPECT_EQ(e.message(),
            "RuntimeError: element 0 of tensors does not require grad and does not have a "
            "grad_fn");
  EXPECT_EQ(e.range().line, 14);
  EXPECT_EQ(e.exit_code(), 2);
}

TEST(Errors, UnknownTorchFunctionsSuggestSupportedNames) {
  Error e = run_error("import torch\ny = torch.relux(torch.ones(2))\n");
  EXPECT_EQ(e.message(), "torch.relux is not supported by d2s");
  EXPECT_EQ(e.hint(), "did you mean torch.relu?");
  EXPECT_EQ(e.range().col, 5);
  Error f = run_error("import torch.nn.functional as F\ny = F.reluu\n");
  EXPECT_EQ(f.message(), "F.reluu (torch.nn.functional.reluu) is not supported by d2s");
  EXPECT_EQ(f.hint(), "did you mean F.relu?");
  Error g = run_error("import torch\ntorch.float64\n");
  EXPECT_EQ(g.message(), "torch.float64 is not supported by d2s");
  // A module d2s does not implement may be imported; using it is the error, naming
  // the module and the import's line.
  // (np.sqrt and collections.OrderedDict are among the names d2s implements.)
  Error h = run_error("import torch\nimport numpy as np\n\nx = np.linalg.norm(2.0)\n");
  EXPECT_EQ(h.message(),
            "'numpy.linalg' comes from the module 'numpy', which d2s does not implement "
            "(imported at line 2)");
  EXPECT_EQ(h.range().line, 4);
  Error i = run_error("from collections import Counter\nd = Counter()\n");
  EXPECT_EQ(i.message(),
            "'collections.Counter()' comes from the module 'collections', which d2s does "
            "not implement (imported at line 1)");
  // With a function as the entry, the file runs as an imported module: the script
  // part under the __main__ test (which uses sys) does not run.
  EXPECT_EQ(run_print("import argparse, sys\nprint('top', __name__ == '__main__')\n"
                      "if __name__ == '__main__':\n    print(sys.argv)\n"
                      "def f():\n    return 1\n"),
            "top False\n");
}

TEST(Errors, SuperNeedsTheClassAndSelf) {
  Error e = run_error(
      "import torch.nn as nn\nclass A(nn.Module):\n    n = 1\n"
      "class B(nn.Module):\n    def __init__(self):\n        super(A, self).__init__()\n"
      "b = B()\ndef f():\n    return 1\n");
  EXPECT_EQ(e.message(), "TypeError: super(type, obj): obj must be an instance or subtype of type");
  EXPECT_EQ(e.range().line, 6);
}

TEST(Errors, TorchRangeNeedsAnEnd) {
  Error e = run_error(
      "import torch\ndef foo2(s):\n    for i in torch.range(10):\n        s += i\n    return s\n",
      {{"s", floats({1}, {0})}});
  EXPECT_EQ(e.message(), "TypeError: range() missing 1 required positional argument: 'end'");
  EXPECT_EQ(e.range().line, 3);
  EXPECT_NE(e.hint().find("torch.arange"), std::string::npos);
  EXPECT_EQ(run_print("import torch\nprint(torch.range(1, 4), torch.range(0, 1, 0.5))\n"),
            "tensor([1., 2., 3., 4.]) tensor([0.0000, 0.5000, 1.0000])\n");
}

TEST(Errors, CallArity) {
  const char* defs = "def f(a, b=1):\n    return a\n";
  auto err = [&](const std::string& call) {
    return run_error(std::string(defs) + call + "\n", {}, with_entry("<module>")).message();
  };
  EXPECT_EQ(err("f(1, 2, 3)"),
            "TypeError: f() takes from 1 to 2 positional arguments but 3 were given");
  EXPECT_EQ(err("f()"), "TypeError: f() missing 1 required positional argument: 'a'");
  EXPECT_EQ(err("f(1, c=2)"), "TypeError: f() got an unexpected keyword argument 'c'");
  EXPECT_EQ(err("f(1, a=2)"), "TypeError: f() got multiple values for argument 'a'");
  EXPECT_EQ(err("len(1, 2)"), "TypeError: len() takes exactly 1 argument (2 given)");
  EXPECT_EQ(err("3()"), "TypeError: 'int' object is not callable");
  // The registry's own binding errors pass through at the call.
  Error e = run_error("import torch\nx = torch.mm(torch.ones(2, 2))\n");
  EXPECT_EQ(e.range().line, 2);
  EXPECT_NE(e.message().find("mm()"), std::string::npos);
}

TEST(Errors, OperandsIndicesAttributesAndDivision) {
  EXPECT_EQ(run_error("import torch\ny = torch.ones(2) + 'a'\n").message(),
            "TypeError: unsupported operand type(s) for +: 'Tensor' and 'str'");
  EXPECT_EQ(run_error("y = 'a' + 1\n").message(),
            "TypeError: can only concatenate str (not \"int\") to str");
  EXPECT_EQ(run_error("y = None * 2\n").message(),
            "TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'");
  EXPECT_EQ(run_error("y = [1, 2][2]\n").message(), "IndexError: list index out of range");
  EXPECT_EQ(run_error("import torch\ny = torch.ones(2)[0, 1]\n").message(),
            "IndexError: too many indices for tensor of dimension 1");
  EXPECT_EQ(run_error("y = 1 / 0\n").message(), "ZeroDivisionError: division by zero");
  EXPECT_EQ(run_error("y = 1 // 0\n").message(),
            "ZeroDivisionError: integer division or modulo by zero");
  EXPECT_EQ(run_error("y = 1.0 % 0\n").message(), "ZeroDivisionError: float modulo by zero");
  EXPECT_EQ(run_error("y = (1).foo\n").message(),
            "AttributeError: 'int' object has no attribute 'foo'");
  Error a = run_error("import torch\ny = torch.ones(2).sumx()\n");
  EXPECT_EQ(a.message(),
            "AttributeError: 'Tensor' object has no attribute 'sumx' that d2s supports");
  EXPECT_EQ(a.hint(), "did you mean 'sum'?");
  EXPECT_EQ(run_error("a, b = (1, 2, 3)\n").message(),
            "ValueError: too many values to unpack (expected 2)");
  EXPECT_EQ(run_error("a, b, c = (1, 2)\n").message(),
            "ValueError: not enough values to unpack (expected 3, got 2)");
  EXPECT_EQ(run_error("x = 2 ** 70\n").message(),
            "OverflowError: integer result does not fit in 64 bits (d2s ints are 64-bit)");
}

TEST(Errors, ModuleAttributeErrorsSuggestNames) {
  const char* src =
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.linear1 = nn.Linear(2, 2)\n"
      "    def forward(self, x):\n"
      "        return self.linear_1(x)\n";
  Error e = run_error(src, {{"x", floats({1, 2}, {1, 2})}});
  EXPECT_EQ(e.message(), "AttributeError: 'M' object has no attribute 'linear_1'");
  EXPECT_EQ(e.hint(), "did you mean 'linear1'?");
  EXPECT_EQ(e.range().line, 7);
}

TEST(Limits, WhileTrueStopsAtTheIterationLimit) {
  RunOptions opts;
  opts.limits.max_loop_iterations = 1000;
  Error e = run_error("n = 0\nwhile True:\n    n += 1\n", {}, opts);
  EXPECT_EQ(e.message(),
            "loop at line 2 exceeded the iteration limit (1000 iterations); raise it with "
            "--max-iterations");
  EXPECT_EQ(e.range().line, 2);

  RunOptions total;
  total.limits.max_total_iterations = 2500;
  Error t = run_error(
      "for i in range(1000):\n    pass\nfor i in range(1000):\n    pass\nfor i in range(1000):\n   "
      " pass\n",
      {}, total);
  EXPECT_NE(t.message().find("total iteration limit (2500"), std::string::npos);
  EXPECT_EQ(t.range().line, 5);
}

TEST(Limits, WhileTrueStopsAtTheDefaultLimit) {
  // One million iterations: the default, which a forgotten `break` reaches in seconds.
  Error e = run_error("while True:\n    pass\n");
  EXPECT_EQ(e.message(),
            "loop at line 1 exceeded the iteration limit (1000000 iterations); raise it with "
            "--max-iterations");
}

TEST(Limits, DeepRecursionIsAnErrorNotACrash) {
  const char* src = "def f(n):\n    return f(n + 1)\nf(0)\n";
  Error e = run_error(src, {}, with_entry("<module>"));
  EXPECT_EQ(e.message(), "RecursionError: maximum recursion depth exceeded calling f()");
  EXPECT_EQ(e.range().line, 2);
  // A raised limit is honoured: the interpreter runs on a large stack, so 3000 nested
  // calls (more than a default 8 MB stack holds in a debug build) work.
  RunOptions deep = with_entry("<module>");
  deep.limits.max_call_depth = 3000;
  EXPECT_EQ(
      run_print(
          "def f(n):\n    if n == 0:\n        return 0\n    return 1 + f(n - 1)\nprint(f(2500))\n",
          {}, deep),
      "2500\n");
  Error d = run_error(src, {}, deep);
  EXPECT_EQ(d.message(), "RecursionError: maximum recursion depth exceeded calling f()");
}

TEST(Limits, HugeTensorsAreRefused) {
  Error e = run_error("import torch\nx = torch.zeros(100000, 100000)\n");
  EXPECT_EQ(e.range().line, 2);
  EXPECT_NE(e.message().find("100000"), std::string::npos);
}

}  // namespace
}  // namespace d2s::testing
