// register_buffer / register_parameter and the module walks (trace/py_module_state.cpp):
// their errors as PyTorch 1.13 raises them, and buffers in --weights.
#include <gtest/gtest.h>

#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

std::string module_with(const std::string& init_lines, const std::string& forward = "x") {
  return "import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
         "    def __init__(self):\n        super().__init__()\n" +
         init_lines + "    def forward(self, x):\n        return " + forward + "\n";
}

TEST(ModuleState, RegisterBufferOverAnAttributeIsAKeyError) {
  Error e = run_error(module_with("        self.b = 1\n"
                                  "        self.register_buffer('b', torch.ones(1))\n"),
                      {{"x", floats({1}, {1})}});
  EXPECT_EQ(e.message(), "KeyError: \"attribute 'b' already exists\"");
  EXPECT_EQ(e.range().line, 7);
}

TEST(ModuleState, RegisterBufferNeedsATensorOrNone) {
  Error e =
      run_error(module_with("        self.register_buffer('b', 3)\n"), {{"x", floats({1}, {1})}});
  EXPECT_EQ(e.message(),
            "TypeError: cannot assign 'int' object to buffer 'b' (torch Tensor or None required)");
}

TEST(ModuleState, BufferNamesCannotHoldADot) {
  Error e = run_error(module_with("        self.register_buffer('a.b', torch.ones(1))\n"),
                      {{"x", floats({1}, {1})}});
  EXPECT_EQ(e.message(), "KeyError: \"buffer name can't contain \\\".\\\"\"");
}

TEST(ModuleState, RegisterParameterNeedsAParameterOrNone) {
  Error e = run_error(module_with("        self.register_parameter('p', torch.ones(1))\n"),
                      {{"x", floats({1}, {1})}});
  EXPECT_EQ(e.message(),
            "TypeError: cannot assign 'Tensor' object to parameter 'p' (torch.nn.Parameter or "
            "None required)");
}

TEST(ModuleState, PersistentBuffersAreLoadedFromTheWeightsAndRequired) {
  const std::string src = module_with(
      "        self.register_buffer('mean', torch.zeros(2))\n"
      "        self.register_buffer('tmp', torch.zeros(2), persistent=False)\n",
      "x - self.mean + self.tmp");
  RunOptions opts;
  opts.weights["mean"] = floats({2}, {1.0f, 2.0f});
  IValue out = run_value(src, {{"x", floats({2}, {5.0f, 5.0f})}}, opts);
  EXPECT_FLOAT_EQ(static_cast<float>(out.to_tensor().value_at(1)), 3.0f);

  RunOptions extra = opts;  // a non-persistent buffer is not in a state_dict
  extra.weights["tmp"] = floats({2}, {0, 0});
  EXPECT_EQ(run_error(src, {{"x", floats({2}, {5, 5})}}, extra).message(),
            "the weights have 'tmp', which is not a parameter of M");

  RunOptions missing;
  missing.weights["other"] = floats({2}, {0, 0});
  Error e = run_error(module_with("        self.register_buffer('mean', torch.zeros(2))\n"
                                  "        self.w = nn.Parameter(torch.ones(1))\n"),
                      {{"x", floats({1}, {1})}}, [] {
                        RunOptions o;
                        o.weights["w"] = floats({1}, {1});
                        return o;
                      }());
  EXPECT_EQ(e.message(), "the weights have no value for buffer 'mean'");
}

TEST(ModuleState, ApplyVisitsChildrenBeforeTheirParent) {
  const char* src =
      "import torch.nn as nn\n"
      "seen = []\n"
      "def visit(m):\n"
      "    seen.append(type(m).__name__)\n"
      "class Inner(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.a = nn.ReLU()\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.inner = Inner()\n"
      "        self.b = nn.Tanh()\n"
      "        self.apply(visit)\n"
      "    def forward(self, x):\n"
      "        print(seen)\n"
      "        return x\n";
  EXPECT_EQ(run_print(src, {{"x", floats({1}, {1})}}), "['ReLU', 'Inner', 'Tanh', 'M']\n");
}

TEST(ModuleState, DeepcopyCopiesTensorsAndKeepsSharingInsideTheCopy) {
  const char* src =
      "import copy\nimport torch\n"
      "t = torch.ones(2)\na = [t, t]\nb = copy.deepcopy(a)\nb[0].add_(1)\n"
      "print(a[0], b[1], b[0] is b[1], a[0] is b[0])\n";
  EXPECT_EQ(run_print(src, {}, with_entry("<module>")),
            "tensor([1., 1.]) tensor([2., 2.]) True False\n");
  Error e = run_error("import copy\nx = copy.deepcopy([1], [])\n", {}, with_entry("<module>"));
  EXPECT_EQ(e.message(), "deepcopy(memo=...) is not supported by d2s");
}

}  // namespace
}  // namespace d2s::testing
