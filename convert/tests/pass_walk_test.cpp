// The walks the passes and the diff start from: post_order's order (forward and
// reversed) against a plain recursive reference, and the node counts the diff takes
// while it makes the guarded trace plain (no walk of its own).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "convert/passes.h"
#include "convert/tests/diff_test_util.h"
#include "trace/tracer.h"

namespace d2s::convert {
namespace {

const SourceRange kAt(nullptr, 1, 1);

// The order post_order promises, written recursively (the test graphs are shallow).
void reference(const ir::Block* b, bool reverse, std::vector<ir::Node*>& out) {
  std::vector<ir::Node*> nodes;
  for (ir::Node* n : b->nodes()) nodes.push_back(n);
  if (reverse) std::reverse(nodes.begin(), nodes.end());
  for (ir::Node* n : nodes) {
    std::vector<ir::Block*> blocks = n->blocks();
    if (reverse) std::reverse(blocks.begin(), blocks.end());
    for (ir::Block* inner : blocks) reference(inner, reverse, out);
    out.push_back(n);
  }
}

ir::Value* leaf(ir::Graph& g, ir::Value* x) {
  ir::Node* n = g.insert("aten::neg", {x}, 1, kAt);
  n->output()->set_type(ir::Type::tensor(DType::Float32));
  return n->output();
}

// An If with two arms around the insertion point's block; `fill` fills each arm.
ir::Node* if_node(ir::Graph& g, ir::Value* c, ir::Value* x,
                  const std::function<ir::Value*(ir::Block*)>& fill) {
  ir::Node* n = g.insert(ir::kind::If, {c}, 1, kAt);
  n->output()->set_type(ir::Type::tensor(DType::Float32));
  for (int arm = 0; arm < 2; ++arm) {
    ir::Block* b = n->add_block();
    ir::WithInsertPoint guard(g, b);
    b->register_output(fill ? fill(b) : leaf(g, x));
  }
  return n;
}

TEST(PostOrder, MatchesTheRecursiveOrderForwardAndReversed) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", ir::Type::tensor(DType::Float32));
  ir::Value* c = g.add_input("c", ir::Type::of_bool());
  ir::Value* a = leaf(g, x);
  // An If whose arms hold two nodes and an If of their own, an empty-bodied sibling
  // If, and nodes before and after.
  ir::Node* outer = if_node(g, c, a, [&](ir::Block*) {
    ir::Value* y = leaf(g, a);
    ir::Node* inner = if_node(g, c, y, nullptr);
    return leaf(g, inner->output());
  });
  ir::Node* second = if_node(g, c, outer->output(), nullptr);
  g.register_output(leaf(g, second->output()));
  for (bool reverse : {false, true}) {
    std::vector<ir::Node*> want;
    reference(g.block(), reverse, want);
    EXPECT_EQ(post_order(g.block(), reverse), want) << "reverse " << reverse;
    EXPECT_EQ(want.size(), 16u);
  }
  // A block of its own: the walk stays inside it.
  ir::Block* arm = outer->blocks()[1];
  std::vector<ir::Node*> want;
  reference(arm, false, want);
  EXPECT_EQ(post_order(arm), want);
}

TEST(PostOrder, EmptyBlock) {
  ir::Graph g;
  EXPECT_TRUE(post_order(g.block()).empty());
  EXPECT_TRUE(post_order(g.block(), true).empty());
}

// The diff counts the guarded trace while stripping it in place: the counts are those
// of `d2s trace` (guards) and of the plain trace it reports.
TEST(DiffCounts, GuardedAndPlainTraceSizes) {
  const std::string src =
      "import torch\nfrom torch import Tensor\n\n\n"
      "def f(x: Tensor, n: int) -> Tensor:\n"
      "    for i in range(n):\n"
      "        x = x * 0.5 + 1.0\n"
      "    if x.sum() > 0:\n"
      "        x = x - 1.0\n"
      "    return x\n";
  NamedInputs inputs = {{"x", testing::t({2}, {1, 2})}, {"n", IValue(int64_t{3})}};
  DiffReport r = testing::diff_source(src, {inputs});
  Program program = Program::from_string(src, "model.py");
  TraceOptions guarded;
  TraceResult traced = trace_program(program, inputs, guarded);
  EXPECT_EQ(r.traced.guarded_nodes, traced.graph->node_count());
  ASSERT_TRUE(r.traced_graph);
  EXPECT_EQ(r.traced.nodes, r.traced_graph->node_count());
  EXPECT_GT(r.traced.guarded_nodes, r.traced.nodes);  // the guards on n and on the if
  EXPECT_TRUE(r.agrees());
}

}  // namespace
}  // namespace d2s::convert
