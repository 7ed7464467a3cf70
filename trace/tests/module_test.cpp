// nn.Module programs: construction, state_dict names, default initialisation, --weights,
// training mode, built-in modules and their repr.
#include <cmath>

#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

const char* kDynamicModel =
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "class DynamicModel(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.linear1 = nn.Linear(10, 5)\n"
    "        self.linear2 = nn.Linear(5, 1)\n"
    "\n"
    "    def forward(self, x):\n"
    "        if self.training:\n"
    "            print(f\"Input shape: {x.shape}\")\n"
    "        if x.mean() > 0.5:\n"
    "            x = self.linear1(x)\n"
    "        else:\n"
    "            x = torch.relu(self.linear1(x))\n"
    "        return self.linear2(x)\n";

std::vector<std::string> names_of(const Program& p) {
  std::vector<std::string> names;
  for (const auto& [n, t] : p.parameters()) names.push_back(n);
  return names;
}

TEST(Modules, ParametersAreNamedAsInAStateDict) {
  Program p = Program::from_string(kDynamicModel);
  p.prepare({});
  EXPECT_EQ(names_of(p), (std::vector<std::string>{"linear1.weight", "linear1.bias",
                                                   "linear2.weight", "linear2.bias"}));
  auto params = p.parameters();
  EXPECT_EQ(params[0].second.shape(), (Shape{5, 10}));
  EXPECT_EQ(params[1].second.shape(), (Shape{5}));
  EXPECT_EQ(params[2].second.shape(), (Shape{1, 5}));
  EXPECT_TRUE(params[0].second.requires_grad());

  // Own parameters first, then children's, as named_parameters() orders them.
  Program q = Program::from_string(
      "import torch\nimport torch.nn as nn\n"
      "class Refiner(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.proj = nn.Linear(4, 4)\n"
      "        self.scale = nn.Parameter(torch.full([4], 0.5))\n"
      "        self.body = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.LayerNorm(3))\n"
      "    def forward(self, x):\n"
      "        return self.body(self.proj(x) * self.scale)\n");
  q.prepare({});
  EXPECT_EQ(names_of(q),
            (std::vector<std::string>{"scale", "proj.weight", "proj.bias", "body.0.weight",
                                      "body.0.bias", "body.2.weight", "body.2.bias"}));
}

TEST(Modules, DefaultInitialisationIsSeededAndBoundedLikePyTorch) {
  Program p = Program::from_string(kDynamicModel);
  RunOptions opts;
  opts.seed = 7;
  p.prepare(opts);
  auto a = p.parameters();
  const float bound = 1.0f / std::sqrt(10.0f);
  double spread = 0;
  for (int64_t i = 0; i < a[0].second.numel(); ++i) {
    float v = a[0].second.data<float>()[i];
    EXPECT_LE(std::fabs(v), bound);
    spread = std::max(spread, std::fabs(static_cast<double>(v)));
  }
  EXPECT_GT(spread, bound / 2);  // really drawn, not zeros
  p.prepare(opts);
  auto b = p.parameters();
  EXPECT_EQ(a[0].second.value_at(3), b[0].second.value_at(3));
  opts.seed = 8;
  p.prepare(opts);
  EXPECT_NE(a[0].second.value_at(3), p.parameters()[0].second.value_at(3));
}

TEST(Modules, ForwardRunsInTrainingModeByDefault) {
  NamedInputs in{{"x", Tensor::full({1, 10}, 0.1)}};
  EXPECT_EQ(run_print(kDynamicModel, in), "Input shape: torch.Size([1, 10])\n");
  RunOptions eval;
  eval.training = false;
  EXPECT_EQ(run_print(kDynamicModel, in, eval), "");
  IValue out = run_value(kDynamicModel, in);
  ASSERT_TRUE(out.is_tensor());
  EXPECT_EQ(out.to_tensor().shape(), (Shape{1, 1}));
}

TEST(Modules, WeightsOverrideByName) {
  const char* src =
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(2, 1)\n"
      "    def forward(self, x):\n"
      "        return self.fc(x)\n";
  RunOptions opts;
  opts.weights["fc.weight"] = floats({1, 2}, {2.0f, -1.0f});
  opts.weights["fc.bias"] = floats({1}, {0.5f});
  IValue out = run_value(src, {{"x", floats({1, 2}, {3.0f, 4.0f})}}, opts);
  EXPECT_FLOAT_EQ(static_cast<float>(out.to_tensor().value_at(0)), 2.5f);

  RunOptions unknown = opts;
  unknown.weights["fc.wieght"] = floats({1, 2}, {0, 0});
  Error e1 = run_error(src, {{"x", floats({1, 2}, {3, 4})}}, unknown);
  EXPECT_EQ(e1.message(), "the weights have 'fc.wieght', which is not a parameter of M");
  EXPECT_EQ(e1.hint(), "did you mean 'fc.weight'?");

  RunOptions missing;
  missing.weights["fc.weight"] = floats({1, 2}, {0, 0});
  Error e2 = run_error(src, {{"x", floats({1, 2}, {3, 4})}}, missing);
  EXPECT_EQ(e2.message(), "the weights have no value for parameter 'fc.bias'");
  EXPECT_EQ(e2.range().line, 5);  // where nn.Linear made it

  RunOptions shape = opts;
  shape.weights["fc.weight"] = floats({2, 1}, {0, 0});
  Error e3 = run_error(src, {{"x", floats({1, 2}, {3, 4})}}, shape);
  EXPECT_EQ(e3.message(),
            "parameter 'fc.weight' has shape [1, 2], but the weights give shape [2, 1]");

  RunOptions fn;
  fn.weights["w"] = floats({1}, {0});
  Error e4 = run_error("def f(x):\n    return x\n", {{"x", IValue(1)}}, fn);
  EXPECT_NE(e4.message().find("--weights applies to an nn.Module entry"), std::string::npos);
}

TEST(Modules, HelpersPlainAttributesEvalAndSuper) {
  const char* src =
      "import torch\n"
      "import torch.nn as nn\n"
      "import torch.nn.functional as F\n"
      "class Base(nn.Module):\n"
      "    def __init__(self, n=3):\n"
      "        super().__init__()\n"
      "        self.n = n\n"
      "    def step(self, h):\n"
      "        return h + 1\n"
      "class Net(Base):\n"
      "    def __init__(self):\n"
      "        super().__init__(2)\n"
      "        self.drop = nn.Dropout(0.5)\n"
      "    def forward(self, x):\n"
      "        for i in range(self.n):\n"
      "            x = self.step(x)\n"
      "        self.eval()\n"
      "        return self.drop(x), self.training, self.drop.training, F.dropout(x, 0.0)\n";
  IValue out = run_value(src, {{"x", floats({2}, {1, 2})}});
  const ValueList& items = out.tuple_items();
  EXPECT_EQ(items[0].to_tensor().value_at(1), 4.0);  // dropout is the identity in eval mode
  EXPECT_FALSE(items[1].to_bool());
  EXPECT_FALSE(items[2].to_bool());
}

TEST(Modules, BuiltinModulesComputeAndPrint) {
  const char* src =
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.seq = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Identity())\n"
      "        self.norm = nn.LayerNorm(2, eps=1e-5)\n"
      "        self.act = nn.GELU()\n"
      "    def forward(self, x):\n"
      "        print(self)\n"
      "        return self.act(self.norm(self.seq(x))), len(self.seq), self.seq[0].out_features\n";
  std::string printed = run_print(src, {{"x", floats({1, 3}, {1, 2, 3})}});
  EXPECT_EQ(printed,
            "M(\n"
            "  (seq): Sequential(\n"
            "    (0): Linear(in_features=3, out_features=2, bias=True)\n"
            "    (1): Tanh()\n"
            "    (2): Identity()\n"
            "  )\n"
            "  (norm): LayerNorm((2,), eps=1e-05, elementwise_affine=True)\n"
            "  (act): GELU(approximate='none')\n"
            ")\n");
  IValue out = run_value(src, {{"x", floats({1, 3}, {1, 2, 3})}});
  EXPECT_EQ(out.tuple_items()[1].to_int(), 3);
  EXPECT_EQ(out.tuple_items()[2].to_int(), 2);
  // LayerNorm over two values gives -1 and 1 (before GELU): GELU(1) ~ 0.8413.
  const Tensor& y = out.tuple_items()[0].to_tensor();
  EXPECT_NEAR(std::max(y.value_at(0), y.value_at(1)), 0.8413, 1e-3);
}

TEST(Modules, ParameterStaysAParameter) {
  const char* src =
      "import torch\nimport torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.w = nn.Parameter(torch.ones(2))\n"
      "        self.w = torch.zeros(2)\n"
      "    def forward(self, x):\n"
      "        return x\n";
  Error e = run_error(src, {{"x", IValue(1)}});
  EXPECT_EQ(
      e.message(),
      "TypeError: cannot assign 'Tensor' as parameter 'w' (torch.nn.Parameter or None expected)");
  EXPECT_EQ(e.range().line, 7);
}

TEST(Modules, EntryClassIsBuiltWithoutArguments) {
  const char* src =
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self, n):\n"
      "        super().__init__()\n"
      "    def forward(self, x):\n"
      "        return x\n";
  Error e = run_error(src, {{"x", IValue(1)}});
  EXPECT_EQ(e.message(), "TypeError: M.__init__() missing 1 required positional argument: 'n'");
  EXPECT_NE(e.hint().find("with no arguments"), std::string::npos);
}

TEST(Modules, RequiresGradIsRecorded) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    w = torch.randn(2, 2, requires_grad=True)\n"
      "    y = x.clone().requires_grad_()\n"
      "    return w.requires_grad, y.requires_grad, x.requires_grad, x.grad is None\n";
  IValue out = run_value(src, {{"x", floats({2}, {1, 2})}});
  EXPECT_EQ(out.repr(), "(True, True, False, True)");
}

}  // namespace
}  // namespace d2s::testing
