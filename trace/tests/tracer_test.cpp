// The trace route's graph: baked branches and their guards, inputs and their guards,
// symbolic sizes, module parameters, outputs, dead code; each run on the executor
// against eager.
#include <memory>

#include "core/io/graph_yaml.h"
#include "trace/tests/tracer_test_util.h"

namespace d2s::testing {
namespace {

const char* const kFoo1 =
    "import torch\n"
    "def foo1(x, y):\n"
    "    if x.mean() > 0.5:\n"
    "        s = x + y\n"
    "    else:\n"
    "        s = torch.square(y)\n"
    "    return s\n";

TEST(Tracer, BranchIsBakedAndGuarded) {
  Tensor x = floats({1, 2}, {1, 2});
  Tensor y = floats({1, 2}, {3, 4});
  Traced t = trace(kFoo1, {{"x", x}, {"y", y}});
  const ir::Graph& g = t.graph();
  EXPECT_EQ(g.route, "trace");
  EXPECT_EQ(g.entry, "foo1");
  ASSERT_TRUE(g.source);
  EXPECT_TRUE(nodes_of(g, ir::kind::If).empty());
  EXPECT_TRUE(nodes_of(g, "aten::square").empty());
  ASSERT_EQ(nodes_of(g, "aten::add").size(), 1u);
  EXPECT_EQ(nodes_of(g, "aten::add")[0]->range().line, 4);

  // %b = aten::Bool(%t); prim::Guard(%b)[seen=True, expr="x.mean() > 0.5", what="bool"]
  const ir::Node* bool_guard = find_guard(g, "bool");
  ASSERT_NE(bool_guard, nullptr) << ir::print_graph(g);
  EXPECT_EQ(attr_str(bool_guard, "expr"), "x.mean() > 0.5");
  ASSERT_TRUE(bool_guard->attr("seen")->is_bool());
  EXPECT_TRUE(bool_guard->attr("seen")->to_bool());
  EXPECT_EQ(bool_guard->input(0)->node()->kind(), "aten::Bool");
  EXPECT_EQ(bool_guard->input(0)->node()->input(0)->node()->kind(), "aten::gt");
  EXPECT_EQ(bool_guard->range().line, 3);
  EXPECT_EQ(bool_guard->range().col, 8);

  // Same input: the trace gives eager's answer.
  ValueList out = run_graph(g, {x, y});
  ASSERT_EQ(out.size(), 1u);
  expect_tensor_eq(out[0], t.result.eager_output);

  // An input that takes the other branch: the guard fails, exit 1, naming the test.
  Tensor x2 = floats({1, 2}, {0, 0});
  Error e = guard_failure(g, {x2, y});
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_NE(e.message().find("x.mean() > 0.5"), std::string::npos) << e.message();
  EXPECT_EQ(e.range().line, 3);

  ir::verify(g);
}

TEST(Tracer, WithoutGuardsTheTraceGivesTheTracedBranchsWrongAnswer) {
  Tensor x = floats({1, 2}, {1, 2});
  Tensor y = floats({1, 2}, {3, 4});
  Traced t = trace(kFoo1, {{"x", x}, {"y", y}}, no_guards());
  const ir::Graph& g = t.graph();
  EXPECT_TRUE(nodes_of(g, ir::kind::Guard).empty());
  EXPECT_TRUE(nodes_of(g, "aten::Bool").empty());
  // The condition feeds nothing any more: torch.jit.trace's cleanup drops it too.
  EXPECT_TRUE(nodes_of(g, "aten::gt").empty());
  EXPECT_TRUE(nodes_of(g, "aten::mean").empty());
  // x2 takes the else branch eagerly (square(y) = [9, 16]); the trace still adds.
  Tensor x2 = floats({1, 2}, {0, 0});
  ValueList out = run_graph(g, {x2, y});
  expect_tensor_eq(out[0], IValue(floats({1, 2}, {3, 4})));
  expect_tensor_eq(run_value(kFoo1, {{"x", x2}, {"y", y}}), IValue(floats({1, 2}, {9, 16})));
  // And the log still knows the branch was decided from data.
  ASSERT_EQ(t.result.log.ifs.size(), 1u);
  EXPECT_EQ(t.result.log.ifs[0].from, Provenance::Data);
  EXPECT_FALSE(t.result.log.conversions.at(0).guarded);
  ir::verify(g);
}

// A trace guards only what it baked (contract §2): each tensor input's rank, not its
// sizes, which a guard of their own covers where Python code used them.
TEST(Tracer, InputsAreTypedAndRankGuarded) {
  Tensor x = floats({1, 2}, {1, 2});
  Tensor y = floats({1, 2}, {3, 4});
  Traced t = trace(kFoo1, {{"x", x}, {"y", y}});
  const ir::Graph& g = t.graph();
  ASSERT_EQ(g.inputs().size(), 2u);
  EXPECT_EQ(g.inputs()[0]->debug_name(), "x");
  EXPECT_EQ(g.inputs()[0]->type().str(), "Tensor[1, 2]");
  EXPECT_EQ(g.inputs()[1]->debug_name(), "y");
  int rank_guards = 0;
  for (const ir::Node* n : nodes_of(g, ir::kind::Guard)) {
    EXPECT_NE(attr_str(n, "what"), "shape");
    if (attr_str(n, "what") != "rank") continue;
    ++rank_guards;
    EXPECT_EQ(n->input(0)->node()->kind(), "aten::dim");
    EXPECT_EQ(n->attr("seen")->to_int(), 2);
  }
  EXPECT_EQ(rank_guards, 2);
  EXPECT_TRUE(nodes_of(g, "aten::size").empty()) << ir::print_graph(g);
  // Other sizes, same path: the graph runs (x.mean() > 0.5 still holds).
  ValueList out = run_graph(g, {floats({2, 2}, {1, 1, 1, 1}), floats({2, 2}, {1, 2, 3, 4})});
  EXPECT_EQ(out[0].to_tensor().shape(), (Shape{2, 2}));
  // Another rank: the rank guard fails, with exit code 1.
  Error e = guard_failure(g, {floats({2}, {1, 1}), floats({2}, {1, 1})});
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_NE(e.message().find("'x' had 2 dimensions when traced, has 1 now"), std::string::npos)
      << e.message();
  EXPECT_EQ(t.result.log.guards, 3);
}

TEST(Tracer, SizeFlowingIntoViewStaysSymbolic) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    return x.view(x.size(0), -1)\n";
  Tensor x = Tensor::zeros({2, 3, 4});
  Traced t = trace(src, {{"x", x}}, no_guards());
  const ir::Graph& g = t.graph();
  auto views = nodes_of(g, "aten::view");
  ASSERT_EQ(views.size(), 1u) << ir::print_graph(g);
  const ir::Node* list = views[0]->input(1)->node();
  ASSERT_EQ(list->kind(), ir::kind::ListConstruct) << ir::print_graph(g);
  const ir::Node* size = list->input(0)->node();
  EXPECT_EQ(size->kind(), "aten::size");
  EXPECT_EQ(size->overload(), "int");
  EXPECT_EQ(size->input(0), g.inputs()[0]);
  EXPECT_EQ(list->input(1)->node()->kind(), ir::kind::Constant);
  // Without guards the graph runs on another batch size, as torch.jit.trace's does.
  ValueList out = run_graph(g, {Tensor::zeros({5, 3, 4})});
  EXPECT_EQ(out[0].to_tensor().shape(), (Shape{5, 12}));
  ir::verify(g);

  // With guards too: the batch size stayed symbolic, so nothing guards it (issue 15:
  // the guarded trace refused another batch size); only the rank is guarded.
  Traced guarded = trace(src, {{"x", x}});
  EXPECT_EQ(nodes_of(guarded.graph(), "aten::view").size(), 1u);
  out = run_graph(guarded.graph(), {Tensor::zeros({5, 3, 4})});
  EXPECT_EQ(out[0].to_tensor().shape(), (Shape{5, 12}));
  EXPECT_EQ(guard_failure(guarded.graph(), {Tensor::zeros({5, 12})}).exit_code(), 1);
}

// A size Python code used keeps a guard of its own: a trip count, and the number of
// pieces a split gives (the trace unpacks that many).
TEST(Tracer, SizesPythonUsedStayGuarded) {
  Traced loop = trace(
      "import torch\n"
      "def f(x):\n"
      "    s = x[0]\n"
      "    for i in range(x.size(0)):\n"
      "        s = s + x[i]\n"
      "    return s\n",
      {{"x", Tensor::zeros({3, 2})}});
  Error e = guard_failure(loop.graph(), {Tensor::zeros({4, 2})});
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_NE(e.message().find("was 3 when traced, is 4 now"), std::string::npos) << e.message();
  EXPECT_EQ(run_graph(loop.graph(), {Tensor::zeros({3, 5})})[0].to_tensor().shape(), (Shape{5}));

  Traced split = trace(
      "import torch\n"
      "def f(x):\n"
      "    return torch.stack(x.split(2)).sum(0)\n",
      {{"x", Tensor::zeros({4})}});
  e = guard_failure(split.graph(), {Tensor::zeros({6})});
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_NE(e.message().find("'x.split(2)' was 2 when traced, is 3 now"), std::string::npos)
      << e.message();
}

TEST(Tracer, ArithmeticOnSizesIsRecorded) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    n = x.size(0) * x.size(1)\n"
      "    y = x.reshape(n)\n"
      "    return torch.zeros(x.shape) + 1, y, x.size(1)\n";
  Traced t = trace(src, {{"x", Tensor::zeros({2, 3})}}, no_guards());
  const ir::Graph& g = t.graph();
  auto muls = nodes_of(g, "aten::mul");
  ASSERT_EQ(muls.size(), 1u) << ir::print_graph(g);
  EXPECT_EQ(muls[0]->overload(), "int");
  EXPECT_EQ(muls[0]->input(0)->node()->kind(), "aten::size");
  // torch.zeros(x.shape) takes the whole size list: aten::size(%x).
  auto zeros = nodes_of(g, "aten::zeros");
  ASSERT_EQ(zeros.size(), 1u);
  EXPECT_EQ(zeros[0]->input(0)->node()->kind(), "aten::size");
  EXPECT_EQ(zeros[0]->input(0)->node()->inputs().size(), 1u);
  // A returned tuple: one graph output per item, as the parse route gives them.
  ASSERT_EQ(g.outputs().size(), 3u);
  ValueList items = run_graph(g, {Tensor::zeros({4, 5})});
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].to_tensor().shape(), (Shape{4, 5}));
  EXPECT_EQ(items[1].to_tensor().shape(), (Shape{20}));
  EXPECT_EQ(items[2].to_int(), 5);
  // The eager output is plain: the symbolic size came back as 3.
  EXPECT_EQ(t.result.eager_output.tuple_items()[2].to_int(), 3);
  ir::verify(g);
}

TEST(Tracer, SizeComparisonIsGuardedAsABool) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    if x.size(0) > 1:\n"
      "        return x.sum(0)\n"
      "    return x[0]\n";
  Traced t = trace(src, {{"x", floats({2, 2}, {1, 2, 3, 4})}});
  const ir::Node* g = find_guard(t.graph(), "bool");
  ASSERT_NE(g, nullptr) << ir::print_graph(t.graph());
  EXPECT_EQ(g->input(0)->node()->kind(), "aten::gt");
  EXPECT_EQ(g->input(0)->node()->input(0)->node()->kind(), "aten::size");
  ASSERT_EQ(t.result.log.ifs.size(), 1u);
  EXPECT_EQ(t.result.log.ifs[0].from, Provenance::Shape);
  ir::verify(t.graph());
}

TEST(Tracer, ScalarInputIsBakedAndGuarded) {
  const char* src =
      "import torch\n"
      "def f(x, n: int, alpha: float = 0.5):\n"
      "    return x * n + alpha\n";
  Tensor x = floats({2}, {1, 2});
  Traced t = trace(src, {{"x", x}, {"n", IValue(3)}});
  const ir::Graph& g = t.graph();
  ASSERT_EQ(g.inputs().size(), 2u);  // alpha was not given: its default is a constant
  EXPECT_EQ(g.inputs()[1]->debug_name(), "n");
  EXPECT_EQ(g.inputs()[1]->type().str(), "int");
  const ir::Node* input_guard = find_guard(g, "input");
  ASSERT_NE(input_guard, nullptr) << ir::print_graph(g);
  EXPECT_EQ(input_guard->input(0), g.inputs()[1]);
  EXPECT_EQ(input_guard->attr("seen")->to_int(), 3);
  EXPECT_EQ(attr_str(input_guard, "expr"), "n");
  // The multiplication uses the baked constant, not the input.
  const ir::Node* mul = nodes_of(g, "aten::mul").at(0);
  EXPECT_EQ(mul->input(1)->node()->kind(), ir::kind::Constant);
  expect_tensor_eq(run_graph(g, {x, IValue(3)})[0], IValue(floats({2}, {3.5, 6.5})));
  Error e = guard_failure(g, {x, IValue(4)});
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_NE(e.message().find("'n'"), std::string::npos) << e.message();

  Traced plain = trace(src, {{"x", x}, {"n", IValue(3)}}, no_guards());
  ASSERT_EQ(plain.graph().inputs().size(), 1u);
  expect_tensor_eq(run_graph(plain.graph(), {x})[0], IValue(floats({2}, {3.5, 6.5})));
  ir::verify(g);
}

const char* const kMlp =
    "import torch\n"
    "import torch.nn as nn\n"
    "class MLP(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.linear1 = nn.Linear(3, 4)\n"
    "        self.linear2 = nn.Linear(4, 2)\n"
    "        self.scale = torch.ones(2) * 2\n"
    "    def forward(self, x):\n"
    "        return self.linear2(torch.relu(self.linear1(x))) * self.scale\n";

TEST(Tracer, ModuleParametersAreNamedInputs) {
  Tensor x = floats({1, 3}, {1, -2, 3});
  Traced t = trace(kMlp, {{"x", x}});
  const ir::Graph& g = t.graph();
  EXPECT_EQ(g.entry, "MLP.forward");
  std::vector<std::string> names;
  for (const ir::Value* v : g.inputs()) names.push_back(v->debug_name());
  EXPECT_EQ(names, (std::vector<std::string>{"x", "linear1.weight", "linear1.bias",
                                             "linear2.weight", "linear2.bias"}));
  EXPECT_EQ(g.inputs()[1]->type().str(), "Tensor[4, 3]");
  // self.scale is not a parameter: a tensor constant.
  const ir::Node* mul = nodes_of(g, "aten::mul").at(0);
  EXPECT_EQ(mul->input(1)->node()->kind(), ir::kind::Constant);
  EXPECT_TRUE(mul->input(1)->node()->attr("value")->is_tensor());

  // Other weights: the same graph gives what eager gives with them.
  RunOptions with_weights;
  std::map<std::string, Tensor> weights;
  ValueList graph_inputs{x};
  for (const auto& [name, p] : t.program.parameters()) {
    std::vector<float> data(static_cast<size_t>(p.numel()));
    for (size_t i = 0; i < data.size(); ++i) data[i] = 0.1f * static_cast<float>(i % 7) - 0.2f;
    weights[name] = floats(p.shape(), data);
    graph_inputs.push_back(weights[name]);
  }
  with_weights.weights = weights;
  IValue eager = run_value(kMlp, {{"x", x}}, with_weights);
  expect_tensor_eq(run_graph(g, graph_inputs)[0], eager);
  ir::verify(g);
}

TEST(Tracer, OutputsOfEveryKind) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    return (x, (x + 1, 7)), None, x.size(0)\n";
  Tensor x = floats({2}, {1, 2});
  Traced t = trace(src, {{"x", x}}, no_guards());
  const ir::Graph& g = t.graph();
  ASSERT_EQ(g.outputs().size(), 3u);
  EXPECT_EQ(g.outputs()[0]->node()->kind(), ir::kind::TupleConstruct);
  EXPECT_EQ(g.outputs()[0]->type().str(), "(Tensor[2], (Tensor[2], int))");
  EXPECT_EQ(g.outputs()[1]->node()->kind(), ir::kind::Constant);
  EXPECT_EQ(g.outputs()[2]->node()->kind(), "aten::size");
  ValueList out = run_graph(g, {x});
  EXPECT_EQ(IValue::tuple(out).repr(), t.result.eager_output.repr());
  EXPECT_EQ(t.result.eager_output.tuple_items()[2].to_int(), 2);
  ir::verify(g);
}

TEST(Tracer, ChunkResultsAreUnpacked) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    a, b = torch.chunk(x, 2)\n"
      "    return b - a\n";
  Tensor x = floats({4}, {1, 2, 5, 7});
  Traced t = trace(src, {{"x", x}});
  EXPECT_EQ(nodes_of(t.graph(), ir::kind::ListUnpack).size(), 1u) << ir::print_graph(t.graph());
  expect_tensor_eq(run_graph(t.graph(), {x})[0], IValue(floats({2}, {4, 5})));
  ir::verify(t.graph());
}

// torch.jit.trace records `for row in x` as Tensor.__iter__ runs it: one aten::unbind
// and a prim::ListUnpack of the traced row count, so the plain trace fails on another
// row count (as torch.jit.trace's graph does) instead of reading other rows.
TEST(Tracer, IterationOverATensorIsUnbind) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    acc = torch.zeros(2)\n"
      "    for row in x:\n"
      "        acc = acc + row\n"
      "    return acc / x.shape[0]\n";
  Tensor x = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  Traced t = trace(src, {{"x", x}}, no_guards());
  const ir::Graph& g = t.graph();
  auto unbinds = nodes_of(g, "aten::unbind");
  ASSERT_EQ(unbinds.size(), 1u) << ir::print_graph(g);
  EXPECT_EQ(unbinds[0]->input(0), g.inputs()[0]);
  EXPECT_EQ(unbinds[0]->range().line, 4);
  auto unpacks = nodes_of(g, ir::kind::ListUnpack);
  ASSERT_EQ(unpacks.size(), 1u);
  EXPECT_EQ(unpacks[0]->outputs().size(), 3u);
  EXPECT_TRUE(nodes_of(g, "aten::select").empty()) << ir::print_graph(g);
  expect_tensor_eq(run_graph(g, {x})[0], IValue(floats({2}, {3, 4})));
  ir::verify(g);
  try {
    run_graph(g, {Tensor::zeros({5, 2})});
    ADD_FAILURE() << "five rows unpacked into three:\n" << ir::print_graph(g);
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("expected 3 value(s) to unpack, got 5"), std::string::npos)
        << e.message();
  }
  // With guards the row count is guarded first, with the advice to parse.
  Traced guarded = trace(src, {{"x", x}});
  EXPECT_EQ(guard_failure(guarded.graph(), {Tensor::zeros({5, 2})}).exit_code(), 1);
}

TEST(Tracer, DeadOpsAreDroppedInPlaceOpsKept) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    unused = torch.exp(x)\n"
      "    y = x * 1\n"
      "    y.add_(1)\n"
      "    return x\n";
  Traced t = trace(src, {{"x", floats({2}, {1, 2})}}, no_guards());
  EXPECT_TRUE(nodes_of(t.graph(), "aten::exp").empty());
  EXPECT_EQ(nodes_of(t.graph(), "aten::add_").size(), 1u);
  TraceOptions keep = no_guards();
  keep.eliminate_dead_code = false;
  Traced all = trace(src, {{"x", floats({2}, {1, 2})}}, keep);
  EXPECT_EQ(nodes_of(all.graph(), "aten::exp").size(), 1u);
  ir::verify(t.graph());
  ir::verify(all.graph());
}

TEST(Tracer, ScriptEntryKeepsItsOpsAndReturnsWhatItAssigns) {
  const char* src =
      "import torch\n"
      "x = torch.ones(2)\n"
      "for i in range(3):\n"
      "    x = x * 2\n"
      "if x.sum() > 10:\n"
      "    print(x)\n";
  Traced t = trace(src, {});
  const ir::Graph& g = t.graph();
  EXPECT_EQ(g.entry, "<module>");
  EXPECT_TRUE(g.inputs().empty());
  ASSERT_EQ(g.outputs().size(), 1u);  // x (i is assigned only by the loop)
  EXPECT_EQ(nodes_of(g, "aten::ones").size(), 1u);
  EXPECT_EQ(nodes_of(g, "aten::mul").size(), 3u);
  EXPECT_EQ(nodes_of(g, ir::kind::Guard).size(), 1u);
  EXPECT_EQ(t.printed, "tensor([8., 8.])\n");
  ASSERT_EQ(t.result.log.prints.size(), 1u);
  ASSERT_EQ(t.result.log.loops.size(), 1u);
  EXPECT_EQ(t.result.log.loops[0].trips, 3);
  ValueList out = run_graph(g, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].repr(), "tensor([8., 8.])");
  ir::verify(g);
}

TEST(Tracer, GraphSurvivesTheIrFile) {
  Tensor x = floats({1, 2}, {1, 2});
  Tensor y = floats({1, 2}, {3, 4});
  Traced t = trace(kFoo1, {{"x", x}, {"y", y}});
  std::string yaml = ir::graph_to_yaml(t.graph());
  auto back = ir::graph_from_yaml(std::make_shared<SourceFile>("foo1.ir.yaml", yaml));
  EXPECT_EQ(ir::print_graph(*back), ir::print_graph(t.graph()));
  EXPECT_EQ(back->route, "trace");
}

}  // namespace
}  // namespace d2s::testing
