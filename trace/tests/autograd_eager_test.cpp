// Autograd in the eager interpreter (docs/autograd.md): requires_grad, backward()
// with and without a gradient, accumulation in .grad, detach, @torch.no_grad(),
// parameters, and PyTorch's errors.
#include <gtest/gtest.h>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

TEST(AutogradEager, BackwardFillsGradOfLeaves) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    w = torch.tensor([2.0, -1.0], requires_grad=True)\n"
      "    y = (w * x).sum() + (w * w).sum()\n"
      "    y.backward()\n"
      "    first = w.grad.clone()\n"
      "    y.backward()\n"  // the graph is kept: accumulates
      "    return first, w.grad, w.is_leaf, y.is_leaf, y.grad is None, x.grad is None\n";
  IValue out = run_value(src, {{"x", floats({2}, {3, 5})}});
  // d/dw = x + 2w = [7, 3]
  EXPECT_EQ(out.repr(), "(tensor([7., 3.]), tensor([14.,  6.]), True, False, True, True)");
}

TEST(AutogradEager, GradientArgumentDetachAndNoGrad) {
  const char* src =
      "import torch\n"
      "@torch.no_grad()\n"
      "def scaled(t):\n"
      "    return t * 10\n"
      "def f(x):\n"
      "    x.requires_grad_()\n"
      "    y = x * x\n"
      "    y.backward(torch.tensor([1.0, 0.5]))\n"
      "    return x.grad, x.detach().requires_grad, scaled(x).requires_grad, y.requires_grad\n";
  IValue out = run_value(src, {{"x", floats({2}, {3, 4})}});
  EXPECT_EQ(out.repr(), "(tensor([6., 4.]), False, False, True)");
}

TEST(AutogradEager, WithNoGrad) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    x.requires_grad_()\n"
      "    a = x * x\n"
      "    with torch.no_grad() as g:\n"
      "        y = x * 2\n"
      "        with torch.enable_grad():\n"
      "            z = x * 3\n"
      "        w = x * 4\n"
      "    b = a * 5\n"
      "    b.sum().backward()\n"
      "    return y, y.requires_grad, z.requires_grad, w.requires_grad, b.requires_grad, g,"
      " x.grad\n";
  IValue out = run_value(src, {{"x", floats({2}, {3, 4})}});
  // d(sum 5x^2)/dx = 10x
  EXPECT_EQ(out.repr(), "(tensor([6., 8.]), False, True, False, True, None, tensor([30., 40.]))");
  EXPECT_TRUE(grad_mode_enabled());
}

TEST(AutogradEager, WithRestoresGradModeOnEveryExit) {
  const char* src =
      "import torch\n"
      "def early(t):\n"
      "    with torch.no_grad():\n"
      "        if True:\n"
      "            return t * 2\n"
      "    return t\n"
      "def f(x):\n"
      "    x.requires_grad_()\n"
      "    a = early(x)\n"
      "    b = x * 2\n"
      "    for i in range(3):\n"
      "        with torch.no_grad():\n"
      "            c = x * 2\n"
      "            if i == 0:\n"
      "                continue\n"
      "            break\n"
      "    d = x * 2\n"
      "    return a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad\n";
  IValue out = run_value(src, {{"x", floats({2}, {3, 4})}});
  EXPECT_EQ(out.repr(), "(False, True, False, True)");
  EXPECT_TRUE(grad_mode_enabled());
  // An error inside the body leaves grad mode as it was.
  Error e = run_error(
      "import torch\n"
      "with torch.no_grad():\n"
      "    y = undefined_name\n");
  EXPECT_EQ(e.range().line, 3);
  EXPECT_TRUE(grad_mode_enabled());
}

TEST(AutogradEager, WithOtherContextManagersIsAnError) {
  Error e = run_error(
      "import torch\n"
      "with open('f.txt') as f:\n"
      "    y = 1\n");
  EXPECT_EQ(e.exit_code(), 2);
  EXPECT_EQ(e.message(), "NotSupportedError: this context manager is not supported by d2s");
  EXPECT_EQ(e.range().line, 2);
  EXPECT_EQ(e.range().col, 6);
  EXPECT_TRUE(grad_mode_enabled());
}

TEST(AutogradEager, ModuleParametersGetGradients) {
  const char* src =
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.w = nn.Parameter(torch.tensor([1.0, 2.0]))\n"
      "    def forward(self, x):\n"
      "        loss = (self.w * x).sum()\n"
      "        loss.backward()\n"
      "        return self.w.grad\n";
  EXPECT_EQ(run_value(src, {{"x", floats({2}, {3, 4})}}).repr(), "tensor([3., 4.])");
}

TEST(AutogradEager, PyTorchErrors) {
  Error e = run_error(
      "import torch\n"
      "w = torch.ones(2, requires_grad=True)\n"
      "w += 1\n");
  EXPECT_NE(e.message().find("a leaf Variable that requires grad is being used in an in-place"),
            std::string::npos)
      << e.message();
  EXPECT_EQ(e.range().line, 3);
  e = run_error(
      "import torch\n"
      "w = torch.ones(2, requires_grad=True)\n"
      "(w * 2).backward()\n");
  EXPECT_EQ(e.message(), "RuntimeError: grad can be implicitly created only for scalar outputs");
  EXPECT_EQ(e.range().line, 3);
  e = run_error("import torch\nx = torch.ones(2, dtype=torch.int64)\nx.requires_grad_()\n");
  EXPECT_NE(e.message().find("only Tensors of floating point dtype can require gradients"),
            std::string::npos);
}

}  // namespace
}  // namespace d2s::testing
