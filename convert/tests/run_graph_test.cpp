// GraphRunner: binding named inputs, defaults and parameters to graphs of both routes
// (and of IR files), the error for each way binding can fail, and outputs returned
// as the eager interpreter returns them.
#include "convert/run_graph.h"

#include <gtest/gtest.h>

#include <sstream>

#include "convert/lower.h"
#include "core/base/error.h"
#include "core/io/graph_yaml.h"
#include "trace/tracer.h"

namespace d2s::convert {
namespace {

Tensor t(const Shape& shape, const std::vector<float>& data) {
  return Tensor::from_floats(shape, data);
}

std::vector<float> floats(const IValue& v) {
  std::vector<float> out;
  const Tensor& x = v.to_tensor();
  for (int64_t i = 0; i < x.numel(); ++i) out.push_back(static_cast<float>(x.value_at(i)));
  return out;
}

// The message of the d2s::Error `fn` throws, and its exit code.
template <typename Fn>
std::pair<std::string, int> error_of(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    return {e.format(), e.exit_code()};
  }
  return {"", 0};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kFoo1 =
    "import torch\n"
    "from torch import Tensor\n"
    "\n"
    "def foo1(x: Tensor, y: Tensor, z: Tensor) -> Tensor:\n"
    "    if x < y:\n"
    "        s = x + y\n"
    "    else:\n"
    "        s = torch.square(y)\n"
    "    return s\n";

const char* kScalars =
    "import torch\n"
    "from torch import Tensor\n"
    "\n"
    "def f(x: Tensor, n: int, alpha: float = 0.5, flag: bool = True):\n"
    "    for i in range(n):\n"
    "        x = x * alpha\n"
    "    return x, n + 1\n";

const char* kModule =
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "class M(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.lin = nn.Linear(3, 2)\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.lin(x)\n";

TEST(RunGraph, ParsedGraphBindsByNameInAnyOrder) {
  LoweredGraph g = lower_string(kFoo1);
  Tensor x = t({1}, {2}), y = t({1}, {-1.5}), z = t({1}, {0});
  IValue out = run_graph(*g.graph, {{"z", z}, {"y", y}, {"x", x}});
  EXPECT_EQ(floats(out), std::vector<float>{2.25f});  // square(y): x >= y
  out = run_graph(*g.graph, {{"x", t({1}, {0.5})}, {"y", t({1}, {1.5})}, {"z", z}});
  EXPECT_EQ(floats(out), std::vector<float>{2.0f});
}

TEST(RunGraph, SeveralOutputsAreATupleNoneIsNone) {
  LoweredGraph g = lower_string(kScalars);
  IValue out = run_graph(*g.graph, {{"x", t({2}, {1, 2})}, {"n", IValue(2)}});
  ASSERT_TRUE(out.is_tuple());
  ASSERT_EQ(out.tuple_items().size(), 2u);
  EXPECT_EQ(floats(out.tuple_items()[0]), (std::vector<float>{0.25f, 0.5f}));  // alpha default
  EXPECT_EQ(out.tuple_items()[1].to_int(), 3);

  LoweredGraph none = lower_string("import torch\n\ndef g(x):\n    print(x.sum().item())\n");
  std::ostringstream printed;
  GraphRunOptions opts;
  opts.out = &printed;
  EXPECT_TRUE(run_graph(*none.graph, {{"x", t({2}, {1, 2})}}, opts).is_none());
  EXPECT_EQ(printed.str(), "3.0\n");
}

TEST(RunGraph, ScalarsAreCheckedAndConverted) {
  LoweredGraph g = lower_string(kScalars);
  // An int for a float is accepted, as in Python.
  IValue out = run_graph(*g.graph, {{"x", t({1}, {1})}, {"n", IValue(1)}, {"alpha", IValue(2)}});
  EXPECT_EQ(floats(out.tuple_items()[0]), std::vector<float>{2.0f});
  auto [msg, code] = error_of([&] {
    run_graph(*g.graph, {{"x", t({1}, {1})}, {"n", IValue(1.5)}});
  });
  EXPECT_EQ(code, 2);
  EXPECT_TRUE(has(msg, "input 'n' (int) of the graph 'f' is given the float 1.5: it takes an int"))
      << msg;
  std::tie(msg, code) = error_of([&] {
    run_graph(*g.graph, {{"x", t({1}, {1})}, {"n", IValue(1)}, {"flag", IValue(1)}});
  });
  EXPECT_TRUE(has(msg, "input 'flag' (bool)")) << msg;
  EXPECT_TRUE(has(msg, "it takes a bool")) << msg;
}

TEST(RunGraph, MissingUnknownAndMismatchedInputs) {
  LoweredGraph g = lower_string(kFoo1);
  auto [msg, code] = error_of([&] {
    run_graph(*g.graph, {{"x", t({1}, {1})}, {"z", t({1}, {0})}});
  });
  EXPECT_EQ(code, 2);
  EXPECT_TRUE(has(msg, "this input set has no 'y', input 'y' (Tensor) of the graph 'foo1'")) << msg;
  EXPECT_TRUE(has(msg, "y: {shape: [...], data: [...]}")) << msg;

  std::tie(msg, code) = error_of([&] {
    run_graph(*g.graph, {{"x", t({1}, {1})}, {"yy", t({1}, {1})}, {"z", t({1}, {0})}});
  });
  EXPECT_EQ(code, 2);
  EXPECT_TRUE(has(msg, "'yy' is not an input of the graph 'foo1'")) << msg;
  EXPECT_TRUE(has(msg, "did you mean 'y'?")) << msg;

  std::tie(msg, code) = error_of([&] {
    run_graph(*g.graph, {{"x", IValue(1)}, {"y", t({1}, {1})}, {"z", t({1}, {0})}});
  });
  EXPECT_TRUE(has(msg, "input 'x' (Tensor) of the graph 'foo1' is given the int 1")) << msg;
}

// A Tensor parameter of a parsed graph takes any dtype, as TorchScript's Tensor does
// (issue 15 item 4): a bool mask reaches torch.where, an int64 tensor is added to.
TEST(RunGraph, ParsedTensorInputsTakeAnyDtype) {
  LoweredGraph g = lower_string(
      "import torch\n\ndef f(x, mask):\n    return torch.where(mask, x, torch.zeros_like(x))\n");
  IValue out = run_graph(*g.graph, {{"x", t({2}, {1.5, 2.5})},
                                    {"mask", IValue(Tensor::from_bools({2}, {true, false}))}});
  ASSERT_TRUE(out.is_tensor());
  EXPECT_EQ(out.to_tensor().dtype(), DType::Float32);
  EXPECT_FLOAT_EQ(static_cast<float>(out.to_tensor().value_at(0)), 1.5f);
  EXPECT_FLOAT_EQ(static_cast<float>(out.to_tensor().value_at(1)), 0.0f);

  LoweredGraph add = lower_string("import torch\n\ndef f(x):\n    return x + 1\n");
  out = run_graph(*add.graph, {{"x", IValue(Tensor::from_ints({2}, {3, 4}))}});
  ASSERT_TRUE(out.is_tensor());
  EXPECT_EQ(out.to_tensor().dtype(), DType::Int64);
  EXPECT_EQ(out.to_tensor().value_at(1), 5.0);
}

TEST(RunGraph, ParsedShapesAreChecked) {
  LowerOptions o;
  o.input_shapes = {{"x", {1}}};
  LoweredGraph g = lower_string("import torch\n\ndef f(x):\n    return x * 2\n", o);
  // Symbolic dims take any size ...
  IValue out = run_graph(*g.graph, {{"x", t({2}, {0, 5})}});
  EXPECT_EQ(floats(out), (std::vector<float>{0, 10}));
  // ... but not another rank.
  auto [msg, code] = error_of([&] { run_graph(*g.graph, {{"x", t({1, 1}, {0})}}); });
  EXPECT_EQ(code, 2);
  EXPECT_TRUE(has(msg, "input 'x' (Tensor[x_0])")) << msg;
  EXPECT_TRUE(has(msg, "the shape does not fit")) << msg;
}

TEST(RunGraph, ModuleParametersAsEagerInitialisesThem) {
  auto file = std::make_shared<const SourceFile>("m.py", kModule);
  for (uint64_t seed : {0u, 7u}) {
    LowerOptions lo;
    lo.seed = seed;
    LoweredGraph g = lower_program(file, lo);
    Program program = Program::from_source(file);
    RunOptions ro;
    ro.seed = seed;
    IValue eager = program.run({{"x", t({1, 3}, {1, 2, 3})}}, ro);
    // No weights and no parameters given: the runner prepares graph.source itself.
    GraphRunOptions opts;
    opts.seed = seed;
    GraphRunner runner(*g.graph, opts);
    ASSERT_EQ(runner.parameters().size(), 2u);
    EXPECT_EQ(runner.parameters()[0].first, "lin.weight");
    EXPECT_EQ(floats(runner.run(NamedInputs{{"x", t({1, 3}, {1, 2, 3})}})), floats(eager)) << seed;
  }
}

TEST(RunGraph, WeightsAreStrict) {
  LoweredGraph g = lower_string(kModule);
  GraphRunOptions opts;
  opts.weights = {{"lin.weight", t({2, 3}, {1, 0, 0, 0, 1, 0}), {}},
                  {"lin.bias", t({2}, {10, 20}), {}}};
  IValue out = run_graph(*g.graph, {{"x", t({1, 3}, {1, 2, 3})}}, opts);
  EXPECT_EQ(floats(out), (std::vector<float>{11, 22}));

  GraphRunOptions missing = opts;
  missing.weights.pop_back();
  auto [msg, code] = error_of([&] { GraphRunner r(*g.graph, missing); });
  EXPECT_EQ(code, 2);
  EXPECT_TRUE(has(msg, "the weights file lacks parameter 'lin.bias' (Tensor[2])")) << msg;

  GraphRunOptions unknown = opts;
  unknown.weights.push_back({"lin.bais", t({2}, {0, 0}), {}});
  std::tie(msg, code) = error_of([&] { GraphRunner r(*g.graph, unknown); });
  EXPECT_TRUE(has(msg, "'lin.bais' is not a parameter of the graph 'M.forward'")) << msg;
  EXPECT_TRUE(has(msg, "did you mean 'lin.bias'?")) << msg;

  GraphRunOptions shape = opts;
  shape.weights[1].tensor = t({3}, {0, 0, 0});
  std::tie(msg, code) = error_of([&] { GraphRunner r(*g.graph, shape); });
  EXPECT_TRUE(has(msg,
                  "weight 'lin.bias' is a float32 tensor of shape [3] but the graph's "
                  "parameter is Tensor[2]"))
      << msg;

  // A parameter is not an input of the entry.
  GraphRunner runner(*g.graph, opts);
  std::tie(msg, code) = error_of([&] {
    runner.run(NamedInputs{{"x", t({1, 3}, {1, 2, 3})}, {"lin.bias", t({2}, {0, 0})}});
  });
  EXPECT_TRUE(has(msg, "'lin.bias' is a parameter of the module, not an input of the entry"))
      << msg;
}

TEST(RunGraph, GivenParametersAreUsed) {
  LoweredGraph g = lower_string(kModule);
  GraphRunOptions opts;
  opts.parameters = {{"lin.weight", t({2, 3}, {0, 0, 1, 0, 0, 1})}, {"lin.bias", t({2}, {0, 1})}};
  EXPECT_EQ(floats(run_graph(*g.graph, {{"x", t({1, 3}, {1, 2, 3})}}, opts)),
            (std::vector<float>{3, 4}));
}

TEST(RunGraph, GraphWithoutSourceNeedsWeights) {
  LoweredGraph g = lower_string(kModule);
  std::unique_ptr<ir::Graph> copy = ir::graph_from_yaml(
      std::make_shared<const SourceFile>("g.yaml", ir::graph_to_yaml(*g.graph)));
  // "model.py" does not exist here: the graph keeps its name, without text.
  ASSERT_TRUE(copy->source && copy->source->text().empty());
  auto [msg, code] = error_of([&] { GraphRunner r(*copy, {}); });
  EXPECT_EQ(code, 2);
  EXPECT_TRUE(has(msg,
                  "takes a parameter 'lin.weight' (Tensor[2, 3]) and its program "
                  "'model.py' cannot be read"))
      << msg;
  EXPECT_TRUE(has(msg, "--weights")) << msg;
  GraphRunOptions opts;
  opts.weights = {{"lin.weight", t({2, 3}, {1, 0, 0, 0, 1, 0}), {}},
                  {"lin.bias", t({2}, {0, 0}), {}}};
  EXPECT_EQ(floats(run_graph(*copy, {{"x", t({1, 3}, {1, 2, 3})}}, opts)),
            (std::vector<float>{1, 2}));
}

TEST(RunGraph, ProgramChangedSinceTheGraphWasWritten) {
  LoweredGraph g = lower_string(kModule, {}, "m.py");
  std::string renamed = kModule;
  renamed.replace(renamed.find("self.lin ="), 10, "self.fc =");
  renamed.replace(renamed.find("self.lin("), 9, "self.fc(");
  g.graph->source = std::make_shared<const SourceFile>("m.py", renamed);
  auto [msg, code] = error_of([&] { GraphRunner r(*g.graph, {}); });
  EXPECT_EQ(code, 2);
  EXPECT_TRUE(has(msg,
                  "takes an input 'lin.weight' (Tensor[2, 3]) that is neither an argument "
                  "of its entry nor a parameter of its module in m.py"))
      << msg;

  std::string resized = kModule;
  resized.replace(resized.find("Linear(3, 2)"), 12, "Linear(3, 4)");
  g.graph->source = std::make_shared<const SourceFile>("m.py", resized);
  std::tie(msg, code) = error_of([&] { GraphRunner r(*g.graph, {}); });
  EXPECT_TRUE(has(msg,
                  "the module's parameter 'lin.weight' is a float32 tensor of shape [4, 3] "
                  "but the graph takes Tensor[2, 3]"))
      << msg;
}

TraceResult trace(const std::string& source, const NamedInputs& inputs, bool guards) {
  Program program = Program::from_string(source, "t.py");
  TraceOptions opts;
  std::ostringstream discard;
  opts.run.out = &discard;
  opts.guards = guards;
  return trace_program(program, inputs, opts);
}

TEST(RunGraph, TracedScalarInputsAreGuardedOrBaked) {
  NamedInputs traced_on = {{"x", t({1}, {1})}, {"n", IValue(2)}};
  TraceResult guarded = trace(kScalars, traced_on, true);
  IValue out = run_graph(*guarded.graph, {{"x", t({1}, {8})}, {"n", IValue(2)}});
  EXPECT_EQ(floats(out.tuple_items()[0]), std::vector<float>{2.0f});
  auto [msg, code] = error_of([&] {
    run_graph(*guarded.graph, {{"x", t({1}, {8})}, {"n", IValue(3)}});
  });
  EXPECT_EQ(code, 1);
  EXPECT_TRUE(has(msg, "trace guard failed: 'n' was 2 when traced, is 3 now")) << msg;

  // Without guards n is a constant of the graph: another n is accepted and ignored,
  // as torch.jit.trace ignores it (two steps, whatever n says).
  TraceResult plain = trace(kScalars, traced_on, false);
  out = run_graph(*plain.graph, {{"x", t({1}, {8})}, {"n", IValue(3)}});
  EXPECT_EQ(floats(out.tuple_items()[0]), std::vector<float>{2.0f});
  EXPECT_EQ(out.tuple_items()[1].to_int(), 3);  // n + 1 with the traced n
}

TEST(RunGraph, TracedShapesAreTheGuardsBusiness) {
  TraceResult r = trace(kFoo1, {{"x", t({1}, {0})}, {"y", t({1}, {1})}, {"z", t({1}, {0})}}, true);
  // Another rank: the rank guard stops it (exit 1).
  auto [msg, code] = error_of([&] {
    run_graph(*r.graph, {{"x", t({1, 1}, {0})}, {"y", t({1, 1}, {1})}, {"z", t({1}, {0})}});
  });
  EXPECT_EQ(code, 1);
  EXPECT_TRUE(has(msg, "'x' had 1 dimensions when traced, has 2 now")) << msg;
  // Other sizes are not guarded (none was baked): the graph does what eager does, here
  // the truth value of a two-element `x < y`, an error (exit 2) as in PyTorch.
  auto [msg2, code2] = error_of([&] {
    run_graph(*r.graph, {{"x", t({2}, {0, 0})}, {"y", t({2}, {1, 1})}, {"z", t({1}, {0})}});
  });
  EXPECT_EQ(code2, 2);
  EXPECT_TRUE(has(msg2, "Boolean value of Tensor with more than one value is ambiguous")) << msg2;
}

TEST(RunGraph, InputsAreNotChangedByInPlaceOps) {
  const char* src =
      "import torch\n\ndef f(s):\n    for i in range(3):\n        s += i\n    return s\n";
  Tensor s = t({2}, {1, 1});
  TraceResult r = trace(src, {{"s", IValue(s.clone())}}, true);
  GraphRunner runner(*r.graph, {});
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(floats(runner.run(NamedInputs{{"s", IValue(s)}})), (std::vector<float>{4, 4}));
  }
  EXPECT_EQ(floats(IValue(s)), (std::vector<float>{1, 1}));
}

TEST(RunGraph, EachRunStartsTheGeneratorAfresh) {
  LoweredGraph g = lower_string("import torch\n\ndef f(x):\n    return x + torch.rand(2)\n");
  GraphRunOptions opts;
  opts.seed = 4;
  GraphRunner runner(*g.graph, opts);
  IValue a = runner.run(NamedInputs{{"x", t({2}, {0, 0})}});
  IValue b = runner.run(NamedInputs{{"x", t({2}, {0, 0})}});
  EXPECT_EQ(floats(a), floats(b));
}

}  // namespace
}  // namespace d2s::convert
