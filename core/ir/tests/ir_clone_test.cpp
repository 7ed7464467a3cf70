// Graph::clone (a copy printed exactly as the original, its value map complete) and
// Node::destroy freeing what it removes.
#include <gtest/gtest.h>

#include "core/ir/ir.h"
#include "core/ir/printer.h"
#include "core/ir/tests/ir_test_util.h"
#include "core/ir/verify.h"

namespace d2s::ir {
namespace {

SourceRange at(int line, int col = 1) {
  static auto file = std::make_shared<const SourceFile>("m.py", "");
  return SourceRange(file, line, col);
}

// Every value of the graph: its inputs, each block's inputs and each node's outputs,
// walked with an explicit stack.
std::vector<const Value*> all_values(const Graph& g) {
  std::vector<const Value*> out;
  std::vector<const Block*> stack{g.block()};
  while (!stack.empty()) {
    const Block* b = stack.back();
    stack.pop_back();
    for (const Value* v : b->inputs()) out.push_back(v);
    for (const Node* n : b->nodes()) {
      for (const Value* v : n->outputs()) out.push_back(v);
      for (const Block* nested : n->blocks()) stack.push_back(nested);
    }
  }
  return out;
}

const Value* named(const Graph& g, const std::string& name) {
  for (const Value* v : all_values(g)) {
    if (v->debug_name() == name) return v;
  }
  return nullptr;
}

void expect_same_clone(const Graph& g) {
  Graph::Cloned c = g.clone();
  ASSERT_NE(c.graph, nullptr);
  verify(*c.graph);
  EXPECT_EQ(print_graph(*c.graph), print_graph(g));
  EXPECT_EQ(c.graph->route, g.route);
  EXPECT_EQ(c.graph->entry, g.entry);
  EXPECT_EQ(c.graph->source, g.source);
  const std::vector<const Value*> values = all_values(g);
  EXPECT_EQ(c.value_map.size(), values.size());
  const std::vector<const Value*> copies = all_values(*c.graph);
  ASSERT_EQ(copies.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    auto it = c.value_map.find(values[i]);
    ASSERT_NE(it, c.value_map.end()) << i;
    // The same walk of both graphs meets a value and its copy at the same step.
    EXPECT_EQ(it->second, copies[i]) << i;
    EXPECT_EQ(it->second->type(), values[i]->type());
    EXPECT_EQ(it->second->debug_name(), values[i]->debug_name());
    EXPECT_EQ(it->second->node()->owning_graph(), c.graph.get());
  }
}

TEST(IrClone, CopiesIfAndLoopGraphs) {
  expect_same_clone(*testing::make_foo1());
  expect_same_clone(*testing::make_loop());
  expect_same_clone(*testing::make_loop(/*as_while=*/true));
}

TEST(IrClone, CopiesOverloadsAttributesRangesAndNestedBlocks) {
  Graph g;
  g.route = "trace";
  Value* c = g.add_input("c", Type::of_bool());
  Value* x = g.add_input("x", Type::tensor(DType::Float32));
  Node* loop = g.insert(kind::Loop, {g.insert_constant(IValue(int64_t{3}), at(1)), c, x}, 1, at(2));
  loop->output()->set_type(Type::tensor(DType::Float32));
  Block* body = loop->add_block();
  body->add_input("i")->set_type(Type::of_int());
  Value* h = body->add_input("h");
  h->set_type(Type::tensor(DType::Float32));
  {
    WithInsertPoint in_body(g, body);
    Node* if_node = g.insert(kind::If, {c}, 1, at(3, 5));
    if_node->output()->set_type(Type::tensor(DType::Float32));
    Block* then_b = if_node->add_block();
    Block* else_b = if_node->add_block();
    {
      WithInsertPoint in_then(g, then_b);
      Node* m =
          g.insert("aten::max", {h, g.insert_constant(IValue(int64_t{0}), at(4))}, 2, at(4, 7));
      m->set_overload("dim");
      m->set_attr(kAttrGradEnabled, IValue(false));
      m->output(0)->set_type(Type::tensor(DType::Float32));
      m->output(0)->set_debug_name("v");
      m->output(1)->set_type(Type::tensor(DType::Int64));
      then_b->register_output(m->output(0));
    }
    else_b->register_output(h);
    body->register_output(c);
    body->register_output(if_node->output());
  }
  g.insert(kind::Print, {loop->output()}, 0, at(6));
  g.register_output(loop->output());
  expect_same_clone(g);

  Graph::Cloned copy = g.clone();
  // What the printer does not show: the overload, the attribute and the columns.
  const Node* m2 = copy.value_map.at(named(g, "v"))->node();
  EXPECT_EQ(m2->overload(), "dim");
  ASSERT_NE(m2->attr(kAttrGradEnabled), nullptr);
  EXPECT_FALSE(m2->attr(kAttrGradEnabled)->to_bool());
  EXPECT_EQ(m2->range().line, 4);
  EXPECT_EQ(m2->range().col, 7);
  EXPECT_EQ(m2->outputs().size(), 2u);
  // The copy is independent: rewriting it leaves the original as it was.
  const std::string before = print_graph(g);
  copy.graph->insert_constant(IValue(int64_t{9}), at(7));
  EXPECT_EQ(print_graph(g), before);
  EXPECT_NE(print_graph(*copy.graph), before);
}

// Each `if c: return` nests the rest of a function in an arm: nesting as deep as the
// program is long. `depth` levels of `neg` then an If whose else arm holds the next
// level; returns the outermost If (its output unused).
Node* build_deep_ifs(Graph& g, int depth) {
  Value* c = g.add_input("c", Type::of_bool());
  Value* x = g.add_input("x", Type::tensor(DType::Float32));
  Block* b = g.block();
  Value* v = x;
  Node* first = nullptr;
  std::vector<std::pair<Block*, Value*>> returns;
  for (int i = 0; i < depth; ++i) {
    WithInsertPoint guard(g, b);
    Node* neg = g.insert("aten::neg", {v}, 1, at(i + 1));
    neg->output()->set_type(Type::tensor(DType::Float32));
    Node* if_node = g.insert(kind::If, {c}, 1, at(i + 1));
    if (!first) first = if_node;
    if_node->output()->set_type(Type::tensor(DType::Float32));
    Block* then_b = if_node->add_block();
    Block* else_b = if_node->add_block();
    then_b->register_output(neg->output());
    returns.emplace_back(b, if_node->output());
    b = else_b;
    v = neg->output();
  }
  b->register_output(v);
  for (const auto& [block, out] : returns) {
    if (block != g.block()) block->register_output(out);
  }
  return first;
}

TEST(IrClone, DeepIfNestingIsCopiedWithoutRecursion) {
  Graph g;
  g.register_output(build_deep_ifs(g, 20000)->output());
  Graph::Cloned copy = g.clone();
  EXPECT_EQ(copy.graph->node_count(), g.node_count());
  EXPECT_EQ(copy.graph->node_count(), 40000u);
  EXPECT_EQ(copy.value_map.size(), all_values(g).size());
  EXPECT_EQ(copy.graph->live_nodes(), g.live_nodes());
  EXPECT_EQ(copy.graph->live_values(), g.live_values());
  verify(*copy.graph);
}

TEST(IrFree, DestroyingDeepNestingIsIterative) {
  Graph g;
  const size_t empty_nodes = g.live_nodes();
  Node* top = build_deep_ifs(g, 20000);
  Node* first_neg = top->prev();
  top->destroy();
  first_neg->destroy();
  EXPECT_EQ(g.node_count(), 0u);
  EXPECT_EQ(g.live_nodes(), empty_nodes);
  EXPECT_EQ(g.live_values(), 2u);  // c and x
  EXPECT_FALSE(g.inputs()[0]->has_uses());
  EXPECT_FALSE(g.inputs()[1]->has_uses());
  EXPECT_EQ(g.insert_point(), g.block()->return_node());
  verify(g);
}

TEST(IrFree, DestroyFreesNodesValuesAndBlocks) {
  Graph g;
  const size_t empty_nodes = g.live_nodes();  // the top block's sentinels
  Value* c = g.add_input("c", Type::of_bool());
  Value* x = g.add_input("x", Type::tensor());
  const size_t inputs_only = g.live_values();
  Node* if_node = g.insert(kind::If, {c}, 1, at(1));
  Block* then_b = if_node->add_block();
  Block* else_b = if_node->add_block();
  {
    WithInsertPoint guard(g, then_b);
    then_b->register_output(g.insert("aten::neg", {x}, 1, at(2))->output());
  }
  else_b->register_output(x);
  // The If, its 2 blocks' 4 sentinels, the neg.
  EXPECT_EQ(g.live_nodes(), empty_nodes + 6);
  EXPECT_EQ(g.live_values(), inputs_only + 2);
  if_node->destroy();
  EXPECT_EQ(g.live_nodes(), empty_nodes);
  EXPECT_EQ(g.live_values(), inputs_only);
  // The graph still works after the slots moved.
  Node* a = g.insert("aten::neg", {x}, 1, at(3));
  Node* b = g.insert("aten::neg", {a->output()}, 1, at(4));
  g.register_output(b->output());
  verify(g);
  EXPECT_EQ(g.live_nodes(), empty_nodes + 2);
}

TEST(IrFree, DestroyingInAnyOrderKeepsSlotsRight) {
  // First, last and middle nodes go in turn: each free moves the last node into the
  // freed slot, and a later free must still find the moved node.
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  std::vector<Node*> nodes;
  for (int i = 0; i < 50; ++i) nodes.push_back(g.insert("aten::neg", {x}, 1, at(i + 1)));
  const size_t base = g.live_nodes() - 50;
  for (size_t k = 0; !nodes.empty(); ++k) {
    size_t pick = k % 3 == 0 ? 0 : k % 3 == 1 ? nodes.size() - 1 : nodes.size() / 2;
    nodes[pick]->destroy();
    nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(pick));
    EXPECT_EQ(g.live_nodes(), base + nodes.size());
    EXPECT_EQ(g.node_count(), nodes.size());
  }
  EXPECT_FALSE(x->has_uses());
}

}  // namespace
}  // namespace d2s::ir
