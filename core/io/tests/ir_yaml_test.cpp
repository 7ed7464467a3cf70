// The IR file: round trips (nested blocks, every attribute kind) and every loader
// error, with its place in the YAML text.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/base/error.h"
#include "core/io/graph_yaml.h"
#include "core/ir/printer.h"
#include "core/ir/tests/ir_test_util.h"

namespace d2s::ir {
namespace {

std::unique_ptr<Graph> load(const std::string& text) {
  return graph_from_yaml(std::make_shared<const SourceFile>("g.yaml", text));
}

std::unique_ptr<Graph> round_trip(const Graph& g) {
  std::string yaml = graph_to_yaml(g);
  auto back = load(yaml);
  EXPECT_EQ(print_graph(*back), print_graph(g)) << yaml;
  EXPECT_EQ(graph_to_yaml(*back), yaml);
  return back;
}

Error load_error(const std::string& text) {
  try {
    load(text);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the loader accepted:\n" << text;
  return Error("");
}

// Expects a loader error containing `part` at YAML line `line` (1-based).
void expect_error(const std::string& text, const std::string& part, int line) {
  Error e = load_error(text);
  EXPECT_NE(e.message().find(part), std::string::npos) << e.message();
  EXPECT_EQ(e.range().line, line) << e.message();
  EXPECT_EQ(e.range().path(), "g.yaml") << e.message();
  EXPECT_FALSE(e.hint().empty()) << e.message();
  EXPECT_EQ(e.exit_code(), 2);
}

const char* const kHeader = "format: d2s-ir\nversion: 1\n";

std::string graph_text(const std::string& nodes, const std::string& inputs = "[]",
                       const std::string& outputs = "[]") {
  return std::string(kHeader) + "route: parse\nentry: f\nsource: null\ninputs: " + inputs +
         "\nnodes:\n" + nodes + "outputs: " + outputs + "\n";
}

TEST(IrYamlTest, RoundTripsAnIf) {
  auto g = testing::make_foo1();
  auto back = round_trip(*g);
  EXPECT_EQ(back->route, "parse");
  EXPECT_EQ(back->entry, "foo1");
  ASSERT_TRUE(back->source);
  EXPECT_EQ(back->source->path(), "samples/foo1.py");
  const Node* lt = *back->block()->nodes().begin();
  EXPECT_EQ(lt->range().line, 3);
  EXPECT_EQ(lt->range().col, 6);
  EXPECT_EQ(lt->range().len, 5);
  EXPECT_EQ(lt->range().file, back->source);
}

TEST(IrYamlTest, RoundTripsLoops) {
  round_trip(*testing::make_loop(false));
  round_trip(*testing::make_loop(true));
}

TEST(IrYamlTest, WritesTheDocumentedLayout) {
  std::string yaml = graph_to_yaml(*testing::make_foo1());
  EXPECT_NE(yaml.find("format: d2s-ir\nversion: 1\nroute: \"parse\"\nentry: \"foo1\"\n"
                      "source: \"samples/foo1.py\"\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("  - {id: 0, name: \"x\", type: \"Tensor[1, 10]\"}\n"), std::string::npos);
  EXPECT_NE(yaml.find("  - {kind: \"aten::lt\", inputs: [0, 1], outputs: [{id: 2, type: "
                      "\"Bool[]\"}], loc: {line: 3, col: 6, len: 5}}\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("    blocks:\n      - inputs: []\n        nodes:\n"), std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("attrs: {\"value\": {int: 1}}"), std::string::npos) << yaml;
}

TEST(IrYamlTest, RoundTripsEveryAttributeKind) {
  Graph g;
  g.route = "trace";
  g.entry = "M.forward";
  auto file = std::make_shared<const SourceFile>("m.py", "");
  SourceRange r(file, 2, 3, 4);
  Value* x =
      g.add_input("x", Type::tensor(DType::Float32, std::vector<Dim>{Dim::symbolic("B"), Dim{}}));
  Node* n = g.insert("aten::max", {x}, 2, r);
  n->set_overload("dim");
  n->set_attr("none", IValue());
  n->set_attr("t", IValue(true));
  n->set_attr("f", IValue(false));
  n->set_attr("int", IValue(int64_t{-9007199254740993}));
  n->set_attr("float", IValue(0.1));
  n->set_attr("inf", IValue(-INFINITY));
  n->set_attr("big", IValue(1e300));
  n->set_attr("str", IValue("quote \" backslash \\ newline \n tab \t bell \x07 ünï"));
  n->set_attr("ints", IValue::int_list({3, -1}));
  n->set_attr("empty", IValue::list({}));
  n->set_attr("mixed", IValue::list({IValue(1), IValue(2.5)}));
  n->set_attr("tuple", IValue::tuple({IValue(1), IValue::tuple({IValue("a"), IValue()})}));
  n->set_attr("tf", IValue(Tensor::from_floats({2, 2}, {0.1f, -2.5f, 1e-30f, 3.4e38f})));
  n->set_attr("tl", IValue(Tensor::from_ints({3}, {INT64_MIN, 0, INT64_MAX})));
  n->set_attr("tb", IValue(Tensor::from_bools({}, {true})));
  n->set_attr("t0", IValue(Tensor::zeros({0, 3})));
  n->output(0)->set_type(Type::tuple({Type::list(Type::tensor()), Type::none()}));
  n->output(1)->set_debug_name("idx");
  n->output(1)->set_type(Type::tensor_of(DType::Int64, {2}));
  Value* c = g.insert_constant(IValue(std::nan("")), SourceRange(nullptr, 7, 1));
  g.register_output(n->output(1));
  g.register_output(c);

  auto back = round_trip(g);
  const Node* m = *back->block()->nodes().begin();
  EXPECT_EQ(m->overload(), "dim");
  ASSERT_EQ(m->attrs().size(), n->attrs().size());
  for (size_t i = 0; i < m->attrs().size(); ++i)
    EXPECT_EQ(m->attrs()[i].first, n->attrs()[i].first);
  EXPECT_TRUE(m->attr("none")->is_none());
  EXPECT_TRUE(m->attr("t")->to_bool());
  EXPECT_EQ(m->attr("int")->to_int(), int64_t{-9007199254740993});
  EXPECT_EQ(m->attr("float")->to_double(), 0.1);
  EXPECT_EQ(m->attr("inf")->to_double(), -INFINITY);
  EXPECT_EQ(m->attr("big")->to_double(), 1e300);
  EXPECT_EQ(m->attr("str")->to_string(), n->attr("str")->to_string());
  EXPECT_EQ(m->attr("ints")->to_int_list(), (std::vector<int64_t>{3, -1}));
  EXPECT_TRUE(m->attr("empty")->is_list());
  EXPECT_TRUE(m->attr("mixed")->list_items()[1].is_double());
  EXPECT_EQ(m->attr("tuple")->tuple_items()[1].tuple_items()[0].to_string(), "a");
  const Tensor& tf = m->attr("tf")->to_tensor();
  EXPECT_EQ(tf.shape(), (Shape{2, 2}));
  EXPECT_EQ(tf.data<float>()[0], 0.1f);
  EXPECT_EQ(tf.data<float>()[2], 1e-30f);
  EXPECT_EQ(tf.data<float>()[3], 3.4e38f);
  const Tensor& tl = m->attr("tl")->to_tensor();
  EXPECT_EQ(tl.dtype(), DType::Int64);
  EXPECT_EQ(tl.data<int64_t>()[0], INT64_MIN);
  EXPECT_EQ(tl.data<int64_t>()[2], INT64_MAX);
  EXPECT_EQ(m->attr("tb")->to_tensor().dim(), 0);
  EXPECT_TRUE(m->attr("tb")->to_tensor().data<bool>()[0]);
  EXPECT_EQ(m->attr("t0")->to_tensor().numel(), 0);
  EXPECT_EQ(m->range().file->path(), "m.py");
  EXPECT_EQ(m->range().len, 4);
  const Node* k = m->next();
  EXPECT_TRUE(std::isnan(k->attr("value")->to_double()));
  EXPECT_EQ(k->range().file, nullptr);
}

TEST(IrYamlTest, LoadsTheSourceProgramWhenItExists) {
  std::string yaml = graph_to_yaml(*testing::make_foo1());
  // Relative paths are tried as given, then next to the YAML file.
  auto file = std::make_shared<const SourceFile>(std::string(D2S_SOURCE_DIR) + "/x/g.yaml", yaml);
  auto g = graph_from_yaml(file);
  ASSERT_TRUE(g->source);
  EXPECT_EQ(g->source->path(), "samples/foo1.py");  // as written, for an exact rewrite
  if (!g->source->text().empty()) {
    EXPECT_NE(g->source->text().find("def foo1"), std::string::npos);
  }
  // A missing program still gives locations with its path, without source lines.
  std::string missing = yaml;
  missing.replace(missing.find("samples/foo1.py"), 15, "no/such/file.py");
  auto h = load(missing);
  EXPECT_EQ(h->source->path(), "no/such/file.py");
  EXPECT_TRUE(h->source->text().empty());
}

TEST(IrYamlTest, LongGraphsRoundTrip) {
  // Long enough that recursion per node would show; short enough for a Debug build.
  Graph g;
  auto file = std::make_shared<const SourceFile>("m.py", "");
  Value* v = g.add_input("x", Type::tensor());
  for (int i = 0; i < 20000; ++i)
    v = g.insert("aten::neg", {v}, 1, SourceRange(file, 1, 1))->output();
  g.register_output(v);
  auto back = load(graph_to_yaml(g));
  EXPECT_EQ(back->node_count(), 20000u);
}

// ------------------------------------------------------------------ loader errors

TEST(IrYamlErrorsTest, TopLevel) {
  expect_error("", "the file is empty", 1);
  expect_error("- 1\n", "the IR file must be a map, not a list", 1);
  expect_error("format: d2s-ir\nversion: 1\ninputs: []\nnodes: []\noutputs: []\nextra: 1\n",
               "unknown field 'extra' in the IR file", 6);
  expect_error("format: d2s-ir\nversion: 1\nversion: 1\ninputs: []\nnodes: []\noutputs: []\n",
               "field 'version' appears twice", 3);
  expect_error("format: d2s-ir\nversion: 1\ninputs: []\nnodes: []\n", "has no 'outputs' field", 1);
  expect_error("format: onnx\nversion: 1\ninputs: []\nnodes: []\noutputs: []\n",
               "this is not a d2s IR file", 1);
  expect_error("format: d2s-ir\nversion: 2\ninputs: []\nnodes: []\noutputs: []\n",
               "unsupported IR file version 2", 2);
  expect_error("format: d2s-ir\nversion: one\ninputs: []\nnodes: []\noutputs: []\n",
               "version must be an integer, not 'one'", 2);
  expect_error("format: d2s-ir\nversion: \"1\"\ninputs: []\nnodes: []\noutputs: []\n",
               "version must be an integer, not a string", 2);
  expect_error(graph_text("[]\n") + "---\na: 1\n", "more than one YAML document", 1);
  expect_error("format: d2s-ir\nversion: [1\n", "invalid YAML", 3);
  expect_error("a: &x 1\nb: *x\n", "YAML aliases (*name) are not allowed", 2);
  expect_error(std::string(kHeader) + "inputs: {}\nnodes: []\noutputs: []\n",
               "inputs must be a list, not a map", 3);
}

TEST(IrYamlErrorsTest, Values) {
  expect_error(graph_text("  []\n", "[{id: 0, type: \"Tensor[1\"}]"), "malformed type 'Tensor[1'",
               6);
  expect_error(graph_text("  []\n", "[{name: x}]"), "a graph input has no 'id' field", 6);
  expect_error(graph_text("  []\n", "[{id: 0, nme: x}]"), "unknown field 'nme' in a graph input",
               6);
  expect_error(graph_text("  []\n", "[{id: 0}, {id: 0}]"), "value id 0 is defined twice", 6);
  expect_error(graph_text("  []\n", "[{id: -1}]"), "value ids must not be negative", 6);
  expect_error(graph_text("  []\n", "[]", "[7]"), "unknown value id 7", 9);
  expect_error(graph_text("  - {kind: prim::Print, inputs: [3], loc: {line: 1, col: 1}}\n"),
               "unknown value id 3", 8);
  expect_error(graph_text("  - {kind: prim::Print, inputs: [x], loc: {line: 1, col: 1}}\n"),
               "a value id must be an integer, not 'x'", 8);
}

TEST(IrYamlErrorsTest, Nodes) {
  expect_error(graph_text("  - {inputs: [], loc: {line: 1, col: 1}}\n"), "a node has no 'kind'", 8);
  expect_error(graph_text("  - {kind: prim::Print}\n"), "a node has no 'loc' field", 8);
  expect_error(graph_text("  - {kind: prim::Print, loc: {line: 0, col: 1}}\n"),
               "loc.line must be between 1 and", 8);
  expect_error(graph_text("  - {kind: prim::Print, loc: {line: 1}}\n"),
               "a node's loc has no 'col' field", 8);
  expect_error(graph_text("  - {kind: prim::Print, colour: red, loc: {line: 1, col: 1}}\n"),
               "unknown field 'colour' in a node", 8);
  expect_error(graph_text("  - {kind: prim::Param, loc: {line: 1, col: 1}}\n"),
               "'prim::Param' is not a node kind that a file can hold", 8);
  expect_error(graph_text("  - {kind: [a], loc: {line: 1, col: 1}}\n"),
               "kind must be a string, not a list", 8);
  expect_error(graph_text("  - {kind: prim::If, blocks: {}, loc: {line: 1, col: 1}}\n"),
               "blocks must be a list, not a map", 8);
  expect_error(graph_text("  - {kind: prim::If, blocks: [{nodes: []}], loc: {line: 1, col: 1}}\n"),
               "a block has no 'inputs' field", 8);
}

TEST(IrYamlErrorsTest, Attributes) {
  auto with_attr = [](const std::string& attr) {
    return graph_text("  - {kind: prim::Constant, outputs: [{id: 0}], attrs: {value: " + attr +
                      "}, loc: {line: 1, col: 1}}\n");
  };
  expect_error(with_attr("3"), "an attribute value must be a map with one key", 8);
  expect_error(with_attr("{int: 1, float: 2.0}"), "an attribute value must be a map with one key",
               8);
  expect_error(with_attr("{complex: 1}"), "unknown attribute value kind 'complex'", 8);
  expect_error(with_attr("{int: 1.5}"), "an int attribute must be an integer, not '1.5'", 8);
  expect_error(with_attr("{int: 99999999999999999999}"), "must be an integer", 8);
  expect_error(with_attr("{float: abc}"), "a float attribute must be a number, not 'abc'", 8);
  expect_error(with_attr("{bool: yes}"), "a bool attribute must be true or false, not 'yes'", 8);
  expect_error(with_attr("{none: 1}"), "a none value must be written {none: null}", 8);
  expect_error(with_attr("{str: [1]}"), "a str attribute must be a string, not a list", 8);
  expect_error(with_attr("{ints: [1, a]}"), "an item of an ints attribute must be an integer", 8);
  expect_error(with_attr("{tensor: {dtype: complex64, shape: [1], data: [1]}}"),
               "unknown dtype 'complex64'", 8);
  expect_error(with_attr("{tensor: {dtype: float32, shape: [2], data: [1]}}"),
               "the tensor has 1 values but its shape [2] needs 2", 8);
  expect_error(with_attr("{tensor: {dtype: float32, shape: [-2], data: []}}"),
               "a dimension cannot be negative", 8);
  expect_error(with_attr("{tensor: {dtype: float32, shape: [100000, 100000, 100000], data: []}}"),
               "the tensor is too large", 8);
  expect_error(with_attr("{tensor: {dtype: bool, shape: [1], data: [2]}}"),
               "a tensor value must be true or false, not '2'", 8);
  expect_error(with_attr("{tensor: {dtype: float32, shape: [1]}}"), "a tensor has no 'data' field",
               8);
  std::string deep = "{int: 1}";
  for (int i = 0; i < 100; ++i) deep = "{list: [" + deep + "]}";
  expect_error(with_attr(deep), "an attribute value is nested too deeply", 8);
  expect_error(graph_text("  - {kind: prim::Print, attrs: [], loc: {line: 1, col: 1}}\n"),
               "attrs must be a map, not a list", 8);
}

TEST(IrYamlErrorsTest, TheVerifierRunsAndPointsIntoTheFile) {
  // Unknown op, reported at the node's place in the YAML text.
  Error e =
      load_error(graph_text("  - {kind: prim::Print, loc: {line: 1, col: 1}}\n"
                            "  - {kind: aten::nope, loc: {line: 2, col: 1}}\n"));
  EXPECT_NE(e.message().find("unknown node kind 'aten::nope'"), std::string::npos) << e.message();
  EXPECT_EQ(e.range().line, 9);
  EXPECT_EQ(e.range().path(), "g.yaml");
  EXPECT_NE(e.hint().find("regenerate"), std::string::npos);

  // A block value used after its If.
  std::string text = graph_text(
      "  - {kind: prim::Constant, outputs: [{id: 0, type: bool}], attrs: {value: {bool: true}}, "
      "loc: {line: 1, col: 1}}\n"
      "  - kind: prim::If\n"
      "    inputs: [0]\n"
      "    loc: {line: 2, col: 1}\n"
      "    blocks:\n"
      "      - inputs: []\n"
      "        nodes:\n"
      "          - {kind: prim::Constant, outputs: [{id: 1, type: int}], attrs: {value: {int: "
      "1}}, loc: {line: 3, col: 1}}\n"
      "        outputs: []\n"
      "      - {inputs: [], nodes: [], outputs: []}\n"
      "  - {kind: prim::Print, inputs: [1], loc: {line: 4, col: 1}}\n");
  e = load_error(text);
  EXPECT_NE(e.message().find("used outside the block that defines it"), std::string::npos)
      << e.message();
  EXPECT_EQ(e.range().line, 18);
}

// A guard's kind ("what") is parsed once; an unknown one is refused where it is written.
TEST(IrYamlErrorsTest, AnUnknownGuardKindIsRefusedAtItsNode) {
  Error e = load_error(graph_text(
      "  - {kind: prim::Constant, outputs: [{id: 0, type: int}], attrs: {value: {int: 1}}, "
      "loc: {line: 1, col: 1}}\n"
      "  - {kind: prim::Guard, inputs: [0], attrs: {seen: {int: 1}, what: {str: sahpe}}, "
      "loc: {line: 2, col: 1}}\n"));
  EXPECT_NE(e.message().find("prim::Guard has an unknown 'what' 'sahpe'"), std::string::npos)
      << e.message();
  EXPECT_NE(e.message().find("shape"), std::string::npos) << e.message();  // the known ones
  EXPECT_EQ(e.range().line, 9);
  EXPECT_EQ(e.range().path(), "g.yaml");
  EXPECT_EQ(e.exit_code(), 2);
}

TEST(IrYamlErrorsTest, HostileInputsNeverCrash) {
  // Deep nesting (yaml-cpp's own limit), alias cycles, odd scalars, deep blocks.
  expect_error(std::string(100000, '['), "invalid YAML", 1);
  expect_error("a: &a [*a]\n", "YAML aliases (*name) are not allowed", 1);
  std::string nested = "[]";
  for (int i = 0; i < 300; ++i) {
    nested = "[{kind: prim::If, blocks: [{inputs: [], nodes: " + nested +
             ", outputs: []}], loc: {line: 1, col: 1}}]";
  }
  Error e = load_error(graph_text("  []\n").replace(graph_text("  []\n").find("nodes:\n  []"), 11,
                                                    "nodes: " + nested));
  EXPECT_FALSE(e.message().empty());
  for (const char* junk : {"\t", "\x00\x01", "?", ": :", "!!binary x", "key: !<tag> v",
                           "%YAML 9.9\n---\na: 1", "\xff\xfe", "[", "{", "'", "\"\\u"}) {
    EXPECT_THROW(load(junk), Error) << junk;
  }
}

// Random edits of valid files: every outcome is a graph or a d2s::Error.
TEST(IrYamlErrorsTest, MutatedFilesNeverCrash) {
  std::vector<std::string> seeds = {graph_to_yaml(*testing::make_foo1()),
                                    graph_to_yaml(*testing::make_loop(true))};
  std::mt19937 rng(1234);
  const std::string alphabet = "{}[]:,-#&*!|>'\"\\ \n\t0123456789.eE+abcnulltruefalseid";
  int loaded = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = seeds[round % seeds.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !text.empty(); ++k) {
      size_t pos = rng() % text.size();
      switch (rng() % 4) {
        case 0:
          text[pos] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          text.erase(pos, 1 + rng() % 8);
          break;
        case 2:
          text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          text.resize(pos);
      }
    }
    try {
      auto g = load(text);
      print_graph(*g);
      ++loaded;
    } catch (const Error& e) {
      EXPECT_FALSE(e.message().empty());
    }
  }
  EXPECT_GT(loaded, 0);
}

}  // namespace
}  // namespace d2s::ir
