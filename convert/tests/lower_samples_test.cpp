// Every sample program lowers to a graph that verifies and prints; the error samples
// fail where their .expect.yaml says (for the parse route).
#include <filesystem>

#include "convert/tests/lower_test_util.h"
#include "core/io/graph_yaml.h"
#include "core/ir/verify.h"

namespace d2s::convert {
namespace {

TEST(LowerSamples, AllLowerVerifyAndPrint) {
  namespace fs = std::filesystem;
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(std::string(D2S_SOURCE_DIR) + "/samples")) {
    if (entry.path().extension() != ".py") continue;
    SCOPED_TRACE(entry.path().string());
    LowerOptions raw;
    raw.run_passes = false;
    LoweredGraph before = lower_file(entry.path().string(), raw);
    ir::verify(*before.graph);
    LoweredGraph g = lower_file(entry.path().string());
    ir::verify(*g.graph);
    EXPECT_EQ(g.graph->route, "parse");
    std::string text = ir::print_graph(*g.graph);
    EXPECT_FALSE(text.empty());
    // The IR file holds everything the lowering produces (attributes, tensor
    // constants, placeholders): writing and reading gives the same graph.
    auto yaml = std::make_shared<const SourceFile>("graph.yaml", ir::graph_to_yaml(*g.graph));
    EXPECT_EQ(ir::print_graph(*ir::graph_from_yaml(yaml)), text);
    ++count;
  }
  EXPECT_GT(count, 10u);
}

std::string error_of(const std::string& sample) {
  try {
    lower_file(std::string(D2S_SOURCE_DIR) + "/samples/errors/" + sample + ".py");
  } catch (const Error& e) {
    return e.format();
  }
  return "";
}

TEST(LowerSamples, ErrorSamples) {
  std::string msg = error_of("rnn_textbook");
  EXPECT_NE(msg.find("rnn_textbook.py:10:16: error: NameError: name 'W_h' is not defined"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("did you mean 'w_h'?"), std::string::npos) << msg;
  msg = error_of("foo2_torch_range");
  EXPECT_NE(msg.find("foo2_torch_range.py:16:12: error: TypeError: range() missing 1 required "
                     "positional argument: 'end'"),
            std::string::npos)
      << msg;
  // With the name fixed, the `if` on a 200-element tensor fails only when run (as in
  // eager mode), and backward() adds nothing to the graph: it converts.
  EXPECT_EQ(error_of("rnn_textbook_fixed_name"), "");
}

}  // namespace
}  // namespace d2s::convert

namespace d2s::convert {
namespace {

TEST(LowerSamples, EntryInputsAndDefaults) {
  LowerOptions o;
  o.input_dtypes = {{"x", DType::Float32}};
  LoweredGraph g = lower_file(testing::sample_path("scalar_input"), o);
  ASSERT_EQ(g.num_arguments, 4u);
  ASSERT_EQ(g.argument_defaults.size(), 4u);
  EXPECT_FALSE(g.argument_defaults[0]);
  ASSERT_TRUE(g.argument_defaults[3]);
  EXPECT_DOUBLE_EQ(g.argument_defaults[3]->to_double(), 0.5);
  EXPECT_EQ(g.graph->inputs()[2]->type().str(), "int");
  EXPECT_EQ(g.graph->inputs()[3]->type().str(), "float");
  EXPECT_TRUE(g.parameters.empty());
  EXPECT_EQ(g.graph->entry, "scalar_input");
  LoweredGraph m = lower_file(testing::sample_path("mlp"));
  EXPECT_EQ(m.graph->entry, "MLP.forward");
  ASSERT_EQ(m.parameters.size(), 4u);
  EXPECT_EQ(m.parameters[0].first, "body.0.weight");
  EXPECT_EQ(m.graph->inputs()[1]->debug_name(), "body.0.weight");
  EXPECT_EQ(m.graph->inputs().size(), m.num_arguments + m.parameters.size());
  // Unannotated parameters are tensors, unless a number default says otherwise.
  LoweredGraph d = lower_string("def f(x, k=2, s=0.5, on=True):\n    return x * k * s\n");
  EXPECT_EQ(d.graph->inputs()[0]->type().str(), "Tensor");
  EXPECT_EQ(d.graph->inputs()[1]->type().str(), "int");
  EXPECT_EQ(d.graph->inputs()[2]->type().str(), "float");
  EXPECT_EQ(d.graph->inputs()[3]->type().str(), "bool");
}

}  // namespace
}  // namespace d2s::convert
