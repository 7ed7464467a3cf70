// Differential tests: each program runs eagerly (the interpreter) and as its lowered
// graph (the executor) on inputs chosen to take every branch and vary trip counts;
// outputs and prints must agree.
#include "convert/tests/lower_test_util.h"
#include "core/io/graph_yaml.h"

namespace d2s::convert {
namespace {

using testing::Differential;
using testing::t;

Tensor randn(const Shape& shape, uint64_t seed, float shift = 0) {
  Generator g(seed);
  Tensor out = Tensor::zeros(shape);
  for (int64_t i = 0; i < out.numel(); ++i) out.data<float>()[i] = g.normal() + shift;
  return out;
}

IValue num(double v) {
  return IValue(v);
}
IValue num(int64_t v) {
  return IValue(v);
}

TEST(LowerExec, Foo1BothBranches) {
  Differential d;
  Tensor z = t({1}, {0});
  EXPECT_TRUE(d.run_sample("foo1", {{"x", t({1}, {0.5})}, {"y", t({1}, {1.5})}, {"z", z}}));
  EXPECT_TRUE(d.run_sample("foo1", {{"x", t({1}, {2})}, {"y", t({1}, {-1.5})}, {"z", z}}));
}

TEST(LowerExec, Foo2) {
  Differential d;
  EXPECT_TRUE(d.run_sample("foo2", {{"s", t({2, 3}, {0.5, -1, 2.25, 0, 3.5, -7.125})}}));
}

TEST(LowerExec, RnnCellBothBranches) {
  Differential d;
  for (float shift : {-10.0f, 10.0f}) {
    EXPECT_TRUE(d.run_sample("rnn_cell", {{"x", randn({1, 10}, 1)},
                                          {"prev_h", randn({1, 20}, 2)},
                                          {"w_h", randn({20, 20}, 3)},
                                          {"w_x", randn({20, 10}, 4, shift)}}))
        << "shift " << shift;
  }
}

TEST(LowerExec, BreakContinue) {
  Differential d;
  Tensor x = t({5, 3}, {1, 0.5, -0.25, -2, 0.5, 0.5, 1.5, 3, 1, 0.5, 0.5, 0.5, 1, 1, 1});
  for (double limit : {4.0, 100.0, -1.0, 2.0}) {
    EXPECT_TRUE(d.run_sample("break_continue", {{"x", x}, {"limit", num(limit)}})) << limit;
  }
  // Every row skipped, and no rows at all.
  EXPECT_TRUE(d.run_sample("break_continue", {{"x", randn({4, 3}, 5, -10)}, {"limit", num(1.0)}}));
  EXPECT_TRUE(d.run_sample("break_continue", {{"x", Tensor::zeros({0, 3})}, {"limit", num(1.0)}}));
}

TEST(LowerExec, EarlyReturnEveryExit) {
  Differential d;
  EXPECT_TRUE(d.run_sample("early_return", {{"x", t({2, 3}, {-1, 0.5, -2, 0.25, -0.5, 1})}}));
  EXPECT_TRUE(d.run_sample("early_return", {{"x", t({2, 3}, {6, 0.5, -2, 0.25, -5.5, 1})}}));
  EXPECT_TRUE(d.run_sample("early_return", {{"x", t({2, 3}, {1, 0.5, -2, 0.25, 3.5, 1})}}));
}

// `with torch.no_grad():` is lowered inline; an exit inside it leaves as anywhere else.
TEST(LowerExec, WithGradModeBlocks) {
  Differential d;
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    total = x * 0\n"
      "    for i in range(4):\n"
      "        with torch.no_grad():\n"
      "            if i == 1:\n"
      "                continue\n"
      "            total = total + x * i\n"
      "            if i == 2:\n"
      "                break\n"
      "    with torch.enable_grad() as g, torch.no_grad():\n"
      "        if x.sum() > 0:\n"
      "            return total, g\n"
      "        y = total - 1\n"
      "    return y, g\n";
  EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {1, 2})}}));
  EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {-1, -2})}}));
}

TEST(LowerExec, WhileConvergeTripCounts) {
  Differential d;
  EXPECT_TRUE(d.run_sample("while_converge", {{"a", t({1}, {1})}}));     // no trip
  EXPECT_TRUE(d.run_sample("while_converge", {{"a", t({2}, {4, 9})}}));  // a few
  EXPECT_TRUE(d.run_sample("while_converge", {{"a", t({1}, {1e6})}}));   // hits the cap
}

TEST(LowerExec, DynamicModel) {
  Tensor hi = t({1, 10}, {0.9, 0.2, 0.8, 0.7, 0.6, 0.5, 1.0, 0.4, 0.8, 0.6});
  Tensor lo = t({1, 10}, {-0.9, 0.2, -0.8, 0.7, -0.6, 0.5, 1.0, -0.4, 0.8, -1.0});
  Differential d;
  // While training it prints f"Input shape: {x.shape}": torch.Size([1, 10]) both ways.
  EXPECT_TRUE(d.run_sample("dynamic_model", {{"x", hi}}));
  EXPECT_TRUE(d.run_sample("dynamic_model", {{"x", lo}}));
  d.options.training = false;
  EXPECT_TRUE(d.run_sample("dynamic_model", {{"x", hi}}));
  EXPECT_TRUE(d.run_sample("dynamic_model", {{"x", lo}}));
}

TEST(LowerExec, TrainingFlagBothModes) {
  Differential d;
  EXPECT_TRUE(d.run_sample("training_flag", {{"x", randn({2, 6}, 7)}}));
  d.options.training = false;
  EXPECT_TRUE(d.run_sample("training_flag", {{"x", randn({2, 6}, 7)}}));
}

TEST(LowerExec, Modules) {
  Differential d;
  d.options.seed = 3;
  EXPECT_TRUE(d.run_sample("mlp", {{"x", randn({4, 8}, 1)}}));
  EXPECT_TRUE(d.run_sample("mlp", {{"x", randn({2, 8}, 2)}}));
  EXPECT_TRUE(d.run_sample("module_helper", {{"x", randn({2, 4}, 3)}}));
}

TEST(LowerExec, NestedIfsFourPaths) {
  Differential d;
  Tensor y = t({2, 3}, {0.5, -1, 0.25, 2, -0.5, 1});
  EXPECT_TRUE(d.run_sample("nested_ifs", {{"x", t({2, 3}, {1, 2, -0.5, 0.5, 0, 1})}, {"y", y}}));
  EXPECT_TRUE(d.run_sample("nested_ifs", {{"x", t({2, 3}, {1, 2, -0.5, 0.5, 0, 1})},
                                          {"y", t({2, 3}, {-0.5, 1, -0.25, -2, 0.5, -1})}}));
  EXPECT_TRUE(d.run_sample("nested_ifs", {{"x", t({2, 3}, {-1, -2, 0.5, -0.5, 0, -1})}, {"y", y}}));
  EXPECT_TRUE(
      d.run_sample("nested_ifs", {{"x", t({2, 3}, {-1, 0.5, 0.25, -0.5, 0, 0.25})}, {"y", y}}));
}

TEST(LowerExec, PrintBranchPrintsTheSame) {
  Differential d;
  EXPECT_TRUE(d.run_sample("print_branch", {{"x", t({2, 3}, {0.5, -4, 2, 1.5, 0, -1})}}));
  EXPECT_TRUE(d.run_sample("print_branch", {{"x", t({2, 3}, {0.5, -0.75, 0.25, 0.125, 0, -0.5})}}));
}

TEST(LowerExec, ScalarInputTripCounts) {
  Differential d;
  for (int64_t n : {0, 1, 3}) {
    EXPECT_TRUE(d.run_sample(
        "scalar_input",
        {{"x", randn({1, 4}, 1)}, {"w", randn({4, 4}, 2)}, {"n", num(n)}, {"alpha", num(0.25)}}))
        << n;
  }
}

TEST(LowerExec, ShapeDrivenLoops) {
  Differential d;
  EXPECT_TRUE(d.run_sample("shape_loop", {{"x", randn({3, 4}, 1)}}));
  EXPECT_TRUE(d.run_sample("shape_loop", {{"x", randn({5, 2}, 2)}}));
  EXPECT_TRUE(d.run_sample("tensor_iter", {{"x", randn({3, 4}, 3)}, {"w", randn({4, 2}, 4)}}));
  EXPECT_TRUE(d.run_sample("tensor_iter", {{"x", randn({1, 4}, 5)}, {"w", randn({4, 2}, 4)}}));
  EXPECT_TRUE(d.run_sample(
      "view_batch", {{"x", randn({2, 3, 2}, 1)}, {"w", randn({6, 4}, 2)}, {"b", randn({4}, 3)}}));
}

TEST(LowerExec, NoControlFlow) {
  Differential d;
  EXPECT_TRUE(d.run_sample("slice_cat", {{"x", randn({4, 5}, 1)}}));
  EXPECT_TRUE(d.run_sample("layer_norm_gelu", {{"x", randn({3, 8}, 2)},
                                               {"w", randn({8, 8}, 3)},
                                               {"b", randn({8}, 4)},
                                               {"gamma", randn({8}, 5)},
                                               {"beta", randn({8}, 6)}}));
}

TEST(LowerExec, ItemArith) {
  Differential d;
  Tensor y = t({5}, {1, 2, 3, 4, 5});
  EXPECT_TRUE(d.run_sample("item_arith", {{"x", t({5}, {0.5, 3, -1, 2, 0})}, {"y", y}}));
  EXPECT_TRUE(d.run_sample("item_arith", {{"x", t({5}, {0.1, -0.2, -0.5, 0.4, 0})}, {"y", y}}));
}

// ------------------------------------------------------------ control flow corners

TEST(LowerExec, WhileWithBreakAndContinue) {
  const char* src = R"(
import torch
def f(x, n: int):
    i = 0
    total = x * 0
    while True:
        i += 1
        if i % 2 == 0:
            continue
        total = total + x * i
        if i >= n:
            break
    return total, i
)";
  Differential d;
  for (int64_t n : {1, 2, 5}) {
    EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {1, 2})}, {"n", num(n)}})) << n;
  }
}

TEST(LowerExec, EarlyReturnInsideLoop) {
  const char* src = R"(
import torch
def find(x, limit: float):
    acc = torch.zeros(x.shape[1])
    for i in range(x.shape[0]):
        acc = acc + x[i]
        if acc.sum() > limit:
            return acc, i
    return acc * 0, -1
)";
  Differential d;
  Tensor x = t({3, 2}, {1, 1, 2, 2, 3, 3});
  for (double limit : {0.0, 3.0, 100.0}) {
    EXPECT_TRUE(d.run_source(src, {{"x", x}, {"limit", num(limit)}})) << limit;
  }
}

TEST(LowerExec, ReturnFromNestedLoops) {
  const char* src = R"(
def f(n: int, m: int):
    count = 0
    for i in range(n):
        for j in range(m):
            count += 1
            if i * j == 6:
                return count
        if i > 10:
            break
    return -count
)";
  Differential d;
  for (auto [n, m] : std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {3, 3}, {4, 4}, {20, 2}}) {
    EXPECT_TRUE(d.run_source(src, {{"n", num(n)}, {"m", num(m)}})) << n << "," << m;
  }
}

TEST(LowerExec, NestedExitsMix) {
  const char* src = R"(
def f(n: int, stop: int, skip: int):
    total = 0
    i = 0
    while i < n:
        i += 1
        for w in (1, 2, 3):
            if w == skip:
                continue
            if i * w == stop:
                return total * 100 + i
            if w * i > 20:
                break
            total += w
        if total > 50:
            break
        for j in range(i):
            if j == 2:
                break
            total += j
    return total
)";
  Differential d;
  for (auto [n, stop, skip] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {0, 0, 0}, {5, 6, 2}, {5, 6, 0}, {10, 100, 1}, {30, 100, 3}, {4, 4, 3}}) {
    EXPECT_TRUE(d.run_source(src, {{"n", num(n)}, {"stop", num(stop)}, {"skip", num(skip)}}))
        << n << " " << stop << " " << skip;
  }
}

TEST(LowerExec, ReturnInNestedIfGuardsTheRest) {
  const char* src = R"(
def f(x):
    if x.sum() > 0:
        if x.max() > 5:
            return x
        y = x * 2
    else:
        y = x
    return y + 1
)";
  Differential d;
  for (float v : {-1.0f, 1.0f, 10.0f}) {
    EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {v, v})}})) << v;
  }
  // The code after the outer if runs only when nothing returned: an exit guard.
  LoweredGraph g = lower_string(src);
  size_t guards = 0;
  for (const ir::Node* n : g.graph->block()->nodes()) {
    if (const IValue* a = n->attr("exit_guard")) guards += a->to_bool();
  }
  EXPECT_EQ(guards, 1u);
  // The IR file keeps the attribute and the placeholders.
  std::string text = ir::print_graph(*g.graph);
  auto yaml = std::make_shared<const SourceFile>("g.yaml", ir::graph_to_yaml(*g.graph));
  EXPECT_EQ(ir::print_graph(*ir::graph_from_yaml(yaml)), text);
}

TEST(LowerExec, RangeForms) {
  const char* src = R"(
def f(a: int, b: int, c: int):
    s = 0
    for i in range(a, b, c):
        s = s * 3 + i
    for j in range(b, a):
        s = s + j
    for k in range(a):
        s = s - k
    return s
)";
  Differential d;
  for (auto [a, b, c] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {0, 10, 3}, {10, 0, -3}, {2, 9, 2}, {5, 5, 1}, {-4, 4, 3}}) {
    EXPECT_TRUE(d.run_source(src, {{"a", num(a)}, {"b", num(b)}, {"c", num(c)}}));
  }
}

TEST(LowerExec, UnrolledLoopsAndHelpers) {
  const char* src = R"(
import torch
import torch.nn.functional as F

def scale(x, k: float = 2.0):
    return x * k

def f(x):
    out = x
    for w in (1.0, 2.0, 3.0):
        if w == 2.0:
            continue
        out = scale(out, w)
        if out.sum() > 100:
            break
    y = out if out.mean() > 0 else -out
    ok = bool(x.sum() > 0) and bool(x.max() < 10) or bool(x.min() < -5)
    return F.relu(y), ok
)";
  Differential d;
  EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {1, 2})}}));
  EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {-1, -2})}}));
  EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {30, 40})}}));
  EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {-30, 4})}}));
}

TEST(LowerExec, ModuleScript) {
  const char* src = R"(
import torch
s = 0
for i in range(4):
    if i == 2:
        continue
    s += i
print(f"s={s}", s * 2)
)";
  Differential d;
  EXPECT_TRUE(d.run_source(src, {}));
}

TEST(LowerExec, BuiltInModulesAndContainers) {
  const char* src = R"(
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.body = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Dropout(0.0))
        self.act = nn.Tanh()

    def forward(self, x):
        return self.act(self.body(self.norm(x))) + x

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(4), Block(4)])
        self.head = nn.Sequential(nn.Linear(4, 3), nn.Sigmoid(), nn.Identity())
        self.gain = nn.Parameter(torch.ones(3) * 2.0)
        self.offset = torch.full((3,), 0.25)
        self.sizes = (1, 2)
        self.depth = 2

    def scaled(self, h, factor: float = 1.0):
        return h * self.gain * factor + self.offset

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        first = self.head[0](x)
        y = self.scaled(self.head(x), factor=float(self.depth))
        n = self.sizes[1]
        print(f"depth {self.depth} n {n}", y.shape[1])
        return y, first.sum(dim=1, keepdim=True), n
)";
  Differential d;
  d.options.seed = 11;
  EXPECT_TRUE(d.run_source(src, {{"x", randn({2, 4}, 9)}}));
  d.options.training = false;
  EXPECT_TRUE(d.run_source(src, {{"x", randn({5, 4}, 10)}}));
}

TEST(LowerExec, PrintsAndFormats) {
  const char* src = R"(
import torch
def f(x, k: int):
    v = x.sum().item()
    print("sum", v, k)
    print(f"{v:.3f}|{k:4d}|{k}", x)
    m = max(k, 3)
    assert k >= 0, f"k must be >= 0, got {k}"
    return float(m) + abs(-2), int(x.max()), len(x), x.size()[0], x.dim(), x.numel()
)";
  Differential d;
  EXPECT_TRUE(d.run_source(src, {{"x", t({3}, {0.5, 1.25, -2})}, {"k", num(int64_t{7})}}));
  EXPECT_TRUE(d.run_source(src, {{"x", t({2}, {4, 5})}, {"k", num(int64_t{1})}}));
}

// A whole shape prints as eager PyTorch prints a torch.Size (docs/language.md), through
// variables and inlined calls; its items and other lists print as lists.
TEST(LowerExec, ShapesPrintAsTorchSize) {
  const char* src = R"(
import torch
def shape_of(t):
    return t.shape
def f(x):
    s = x.size()
    print(x.shape, s, shape_of(x), x.shape[0], [x.size(1), 2])
    print(f"shape {x.shape} {s!r} {x.shape[1]:3d}")
    return x
)";
  Differential d;
  EXPECT_TRUE(d.run_source(src, {{"x", t({2, 3}, {1, 2, 3, 4, 5, 6})}}));
  // (A delimiter of its own: the checks hold `)"`.)
  const char* checks = R"checks(
    # CHECK: prim::Constant[value="torch.Size({})"]()
    # CHECK: str = aten::format(
    # CHECK: prim::Print(
    # CHECK: prim::Constant[value="shape torch.Size({}) torch.Size({!r}) {:3d}"]()
  )checks";
  EXPECT_TRUE(testing::file_check(testing::lower_and_print(src), checks));
}

TEST(LowerExec, KeywordOnlyArguments) {
  const char* src = R"(
import torch
import torch.nn.functional as F
def f(x):
    a = torch.zeros(2, 3, dtype=torch.long)
    b = torch.ones(3, dtype=torch.float32) * x.sum(dtype=torch.float32)
    c = F.gelu(x, approximate='tanh')
    d = torch.arange(4, dtype=torch.float32)
    e = torch.full((2,), 3, dtype=torch.bool)
    return a, b, c, d, e, x.add(x, alpha=2)
)";
  Differential d;
  EXPECT_TRUE(d.run_source(src, {{"x", t({3}, {0.5, -1, 2})}}));
}

TEST(LowerExec, AssertFailsLikeEager) {
  Differential d;
  std::string eager_msg, graph_msg;
  try {
    d.run_sample("shape_loop", {{"x", t({3}, {1, 2, 3})}});
  } catch (const Error& e) {
    eager_msg = e.message();
  }
  EXPECT_NE(eager_msg.find("expected a matrix"), std::string::npos) << eager_msg;
  // The graph on its own raises the same message.
  LoweredGraph g = lower_file(testing::sample_path("shape_loop"));
  Executor exec(*g.graph);
  try {
    exec.run({t({3}, {1, 2, 3})});
  } catch (const Error& e) {
    graph_msg = e.message();
  }
  EXPECT_NE(graph_msg.find("expected a matrix"), std::string::npos) << graph_msg;
}

}  // namespace
}  // namespace d2s::convert
