// The trace route's TraceLog (conversions, branches, loop provenance, prints, calls),
// its limits, and its promise on every sample: right answer or a failed guard.
#include <chrono>
#include <filesystem>

#include "core/io/yaml_io.h"
#include "trace/tests/tracer_test_util.h"

namespace d2s::testing {
namespace {

TEST(Tracer, LoopOverShapeIsUnrolledWithShapeProvenance) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    acc = torch.zeros(2)\n"
      "    for i in range(x.shape[0]):\n"
      "        acc = acc + x[i]\n"
      "    return acc\n";
  Tensor x = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  Traced t = trace(src, {{"x", x}});
  const ir::Graph& g = t.graph();
  EXPECT_TRUE(nodes_of(g, ir::kind::Loop).empty());
  EXPECT_EQ(nodes_of(g, "aten::add").size(), 3u);
  EXPECT_EQ(nodes_of(g, "aten::select").size(), 3u);
  ASSERT_EQ(t.result.log.loops.size(), 1u);
  const TraceLoop& loop = t.result.log.loops[0];
  EXPECT_EQ(loop.trips, 3);
  EXPECT_EQ(loop.from, Provenance::Shape);
  EXPECT_FALSE(loop.is_while);
  EXPECT_EQ(loop.range.line, 4);
  // range(x.shape[0]) is guarded on the size itself.
  ASSERT_EQ(t.result.log.conversions.size(), 1u);
  const TraceConversion& c = t.result.log.conversions[0];
  EXPECT_EQ(c.kind, PyConversion::RangeArg);
  EXPECT_EQ(c.expr, "x.shape[0]");
  EXPECT_EQ(c.source, ConversionSource::Symbolic);
  EXPECT_EQ(c.from, Provenance::Shape);
  EXPECT_TRUE(c.guarded);
  EXPECT_EQ(c.seen.to_int(), 3);
  const ir::Node* range_guard = find_guard(g, "range");
  ASSERT_NE(range_guard, nullptr) << ir::print_graph(g);
  EXPECT_EQ(range_guard->input(0)->node()->kind(), "aten::size");
  EXPECT_EQ(range_guard->input(0)->node()->overload(), "int");
  expect_tensor_eq(run_graph(g, {x})[0], t.result.eager_output);
  ir::verify(g);
}

TEST(Tracer, LoopProvenanceConstantShapeAndData) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    for i in range(2):\n"
      "        x = x + 1\n"
      "    for row in x:\n"
      "        x = x + row\n"
      "    n = int(x.sum() / 100)\n"
      "    for i in range(n):\n"
      "        x = x - 1\n"
      "    k = len(x)\n"
      "    for i in range(k + 1):\n"
      "        pass\n"
      "    while x.sum() > 0:\n"
      "        x = x - 10\n"
      "    return x\n";
  Traced t = trace(src, {{"x", floats({2}, {100, 200})}});
  const std::vector<TraceLoop>& loops = t.result.log.loops;
  ASSERT_EQ(loops.size(), 5u);
  EXPECT_EQ(loops[0].from, Provenance::Constant);
  EXPECT_EQ(loops[0].trips, 2);
  EXPECT_EQ(loops[1].from, Provenance::Shape);  // for row in x
  EXPECT_EQ(loops[2].from, Provenance::Data);   // n = int(...)
  EXPECT_EQ(loops[2].range.line, 8);
  EXPECT_EQ(loops[3].from, Provenance::Shape);  // len(x) + 1
  EXPECT_EQ(loops[3].trips, 3);
  EXPECT_EQ(loops[4].from, Provenance::Data);  // while on a tensor
  EXPECT_TRUE(loops[4].is_while);
  EXPECT_EQ(loops[4].header_range.line, 13);
  // The int() was guarded where it happened; range(n) reuses it without a new guard.
  bool saw_int = false, saw_baked_range = false;
  for (const TraceConversion& c : t.result.log.conversions) {
    if (c.kind == PyConversion::Int) {
      saw_int = true;
      EXPECT_TRUE(c.guarded);
      EXPECT_EQ(c.source, ConversionSource::Tensor);
    }
    if (c.kind == PyConversion::RangeArg && c.range.line == 8) {
      saw_baked_range = true;
      EXPECT_FALSE(c.guarded);
      EXPECT_EQ(c.source, ConversionSource::Baked);
      EXPECT_EQ(c.from, Provenance::Data);
    }
  }
  EXPECT_TRUE(saw_int);
  EXPECT_TRUE(saw_baked_range);
  Tensor x = floats({2}, {100, 200});
  expect_tensor_eq(run_graph(t.graph(), {x})[0], t.result.eager_output);
  ir::verify(t.graph());
}

TEST(Tracer, PrintIsDroppedButLogged) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    print('x is', x.shape)\n"
      "    return x + 1\n";
  Traced t = trace(src, {{"x", floats({2}, {1, 2})}});
  EXPECT_EQ(t.printed, "x is torch.Size([2])\n");
  EXPECT_TRUE(nodes_of(t.graph(), ir::kind::Print).empty());
  ASSERT_EQ(t.result.log.prints.size(), 1u);
  EXPECT_EQ(t.result.log.prints[0].text, "x is torch.Size([2])\n");
  EXPECT_EQ(t.result.log.prints[0].range.line, 3);
  // The printed size left no node behind.
  EXPECT_TRUE(nodes_of(t.graph(), "aten::size").empty());
  ir::verify(t.graph());
}

TEST(Tracer, LogRecordsDecisionsCallsAndOrder) {
  const char* src =
      "import torch\n"
      "def helper(x):\n"
      "    return x * 2\n"
      "def f(x, flag: bool):\n"
      "    if x.sum() > 100:\n"
      "        x = x + 1\n"
      "    elif flag:\n"
      "        x = helper(x)\n"
      "    s = x.max().item()\n"
      "    return x / s\n";
  Traced t = trace(src, {{"x", floats({2}, {1, 2})}, {"flag", IValue(true)}});
  const TraceLog& log = t.result.log;
  ASSERT_EQ(log.ifs.size(), 2u);
  EXPECT_EQ(log.ifs[0].range.line, 5);
  EXPECT_FALSE(log.ifs[0].taken);
  EXPECT_FALSE(log.ifs[0].is_elif);
  EXPECT_EQ(log.ifs[0].from, Provenance::Data);
  EXPECT_EQ(log.ifs[1].range.line, 7);
  EXPECT_TRUE(log.ifs[1].is_elif);
  EXPECT_TRUE(log.ifs[1].taken);
  EXPECT_EQ(log.ifs[1].from, Provenance::Constant);  // a scalar input: baked, guarded as input
  ASSERT_EQ(log.calls.size(), 2u);
  EXPECT_EQ(log.calls[0].name, "f");
  EXPECT_EQ(log.calls[0].depth, 0);
  EXPECT_EQ(log.calls[1].name, "helper");
  EXPECT_EQ(log.calls[1].depth, 1);
  EXPECT_EQ(log.calls[1].call_range.line, 8);
  ASSERT_EQ(log.conversions.size(), 2u);
  EXPECT_EQ(log.conversions[0].kind, PyConversion::Bool);
  EXPECT_EQ(log.conversions[0].expr, "x.sum() > 100");
  EXPECT_FALSE(log.conversions[0].seen.to_bool());
  EXPECT_EQ(log.conversions[1].kind, PyConversion::Item);
  EXPECT_EQ(log.conversions[1].expr, "x.max().item()");
  EXPECT_DOUBLE_EQ(log.conversions[1].seen.to_double(), 4.0);
  // seq orders everything: call f, conversion, if, if, call helper, item.
  EXPECT_LT(log.calls[0].seq, log.conversions[0].seq);
  EXPECT_LT(log.conversions[0].seq, log.ifs[0].seq);
  EXPECT_LT(log.ifs[1].seq, log.calls[1].seq);
  EXPECT_LT(log.calls[1].seq, log.conversions[1].seq);
  // item(): aten::item guarded, the division by the baked constant.
  const ir::Graph& g = t.graph();
  const ir::Node* item_guard = find_guard(g, "item");
  ASSERT_NE(item_guard, nullptr) << ir::print_graph(g);
  EXPECT_EQ(item_guard->input(0)->node()->kind(), "aten::item");
  EXPECT_EQ(nodes_of(g, "aten::div").at(0)->input(1)->node()->kind(), ir::kind::Constant);
  // A different maximum: the item guard fails.
  Tensor x2 = floats({2}, {1, 3});
  Error e = guard_failure(g, {x2, IValue(true)});
  EXPECT_NE(e.message().find("x.max().item()"), std::string::npos) << e.message();
  ir::verify(g);
}

TEST(Tracer, HundredThousandOpTrace) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    for i in range(100000):\n"
      "        x = x + 1\n"
      "    return x\n";
  Tensor x = floats({1}, {0});
  auto start = std::chrono::steady_clock::now();
  Traced t = trace(src, {{"x", x}});
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 120.0);
  EXPECT_EQ(nodes_of(t.graph(), "aten::add").size(), 100000u);
  EXPECT_EQ(t.result.log.loops.at(0).trips, 100000);
  EXPECT_EQ(t.result.log.loops.at(0).from, Provenance::Constant);
  ValueList out = run_graph(t.graph(), {x});
  EXPECT_FLOAT_EQ(out[0].to_tensor().value_at(0), 100000.0f);
  // trace_program has already run ir::verify on the graph (iteratively, at any length).
}

TEST(Tracer, NodeLimitIsAClearError) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    for i in range(1000):\n"
      "        x = x + 1\n"
      "    return x\n";
  TraceOptions opts;
  opts.max_nodes = 100;
  try {
    trace(src, {{"x", floats({1}, {0})}}, opts);
    FAIL() << "expected the node limit";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("trace exceeded 100 nodes"), std::string::npos) << e.message();
    EXPECT_NE(e.hint().find("--max-trace-nodes"), std::string::npos) << e.hint();
    EXPECT_EQ(e.range().line, 4);
    EXPECT_EQ(e.exit_code(), 2);
  }
}

// What guards promise, on every sample: traced on input set 0, the graph gives eager's
// answer on each input set, or fails a guard (exit 1) — never a wrong answer. Without
// guards it still gives eager's answer on the traced set.

TEST(Tracer, SamplesTraceRightOrFailAGuard) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(D2S_SOURCE_DIR) / "samples";
  int traced = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::path py = entry.path();
    const fs::path yaml = fs::path(py).replace_extension(".inputs.yaml");
    if (py.extension() != ".py" || !fs::exists(yaml)) continue;
    SCOPED_TRACE(py.filename().string());
    InputFile file = load_input_sets(yaml.string(), 0);
    auto named = [](const InputSet& set) {
      NamedInputs in;
      for (const NamedInput& v : set.values) in.emplace_back(v.name, v.value);
      return in;
    };
    std::ostringstream sink;
    for (bool guards : {true, false}) {
      Program program = Program::load(py.string());
      TraceOptions opts;
      opts.guards = guards;
      opts.run.out = &sink;
      TraceResult r = trace_program(program, named(file.sets[0]), opts);
      ir::verify(*r.graph);
      for (size_t k = 0; k < (guards ? file.sets.size() : 1); ++k) {
        NamedInputs in = named(file.sets[k]);
        Program eager = Program::load(py.string());
        RunOptions run;
        run.out = &sink;
        IValue expected = eager.run(in, run);
        ValueList graph_inputs;
        for (const ir::Value* v : r.graph->inputs()) {
          for (const auto& [name, value] : in) {
            if (name == v->debug_name()) graph_inputs.push_back(value);
          }
          for (const auto& [name, value] : eager.parameters()) {
            if (name == v->debug_name()) graph_inputs.push_back(value);
          }
        }
        ASSERT_EQ(graph_inputs.size(), r.graph->inputs().size());
        try {
          IValue got = as_returned(run_graph(*r.graph, graph_inputs), expected);
          EXPECT_TRUE(same_value(got, expected))
              << "set " << k << ": " << got.repr() << " vs " << expected.repr();
        } catch (const Error& e) {
          EXPECT_TRUE(guards && k > 0) << "set " << k << ": " << e.format();
          EXPECT_EQ(e.exit_code(), 1) << e.format();
          EXPECT_NE(e.message().find("trace guard failed"), std::string::npos) << e.message();
        }
      }
    }
    ++traced;
  }
  EXPECT_GE(traced, 15);
}

}  // namespace
}  // namespace d2s::testing
