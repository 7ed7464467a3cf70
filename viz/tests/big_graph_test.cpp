// Big graphs stay readable: folding of unrolled loops, the node cap, deep nesting —
// and the styling hooks and side-by-side panels later pictures build on.
#include <gtest/gtest.h>

#include "convert/lower.h"
#include "viz/render.h"
#include "viz/tests/viz_test_util.h"

namespace d2s::viz {
namespace {

using testing::count;

TEST(Folding, AThousandIterationTraceIsOneBox) {
  auto g = testing::traced(
      "import torch\ndef f(x):\n    for i in range(1000):\n        x = x * 0.5 + i\n    return x\n",
      {{"x", IValue(Tensor::full({2, 3}, 1.0f))}});
  ASSERT_GT(g->node_count(), 3000u);
  std::string svg = render_graph(*g, Format::Svg);
  EXPECT_NE(svg.find("×1,000"), std::string::npos);
  EXPECT_NE(svg.find("repeated 1,000 times"), std::string::npos);
  EXPECT_NE(svg.find("2,000 repeated nodes folded"), std::string::npos);
  EXPECT_EQ(svg.find("more nodes not drawn"), std::string::npos);
  EXPECT_LT(count(svg, "class=\"node\""), 10u);
  // The box lists one iteration: the two ops and their line.
  EXPECT_NE(svg.find(">mul<"), std::string::npos);
  EXPECT_NE(svg.find(">add<"), std::string::npos);
  EXPECT_NE(svg.find("x = x * 0.5 + i"), std::string::npos);
}

TEST(Folding, CanBeTurnedOff) {
  auto g = testing::traced(
      "import torch\ndef f(x):\n    for i in range(20):\n        x = x * 0.5\n    return x\n",
      {{"x", IValue(Tensor::full({2}, 1.0f))}});
  RenderOptions o;
  o.min_fold_repeats = 0;
  std::string dot = render_graph(*g, Format::Dot, o);
  EXPECT_EQ(dot.find("×"), std::string::npos);
  EXPECT_EQ(count(dot, "<B>mul</B>"), 20u);
}

TEST(NodeCap, TheRestIsSummarisedInOneNote) {
  auto g = testing::chain(2000);
  RenderOptions o;
  o.max_nodes = 100;
  std::string dot = render_graph(*g, Format::Dot, o);
  EXPECT_NE(dot.find("more nodes not drawn"), std::string::npos);
  EXPECT_NE(dot.find("aten::tanh ×"), std::string::npos);
  EXPECT_NE(dot.find("aten::add ×"), std::string::npos);
  EXPECT_NE(dot.find("raise --max-nodes (now 100)"), std::string::npos);
  // The output is still drawn, after the note.
  EXPECT_NE(dot.find("<B>return</B>"), std::string::npos);
  EXPECT_LE(count(dot, "<B>tanh</B>") + count(dot, "<B>add</B>"), 100u);
  EXPECT_GE(count(dot, "<B>tanh</B>") + count(dot, "<B>add</B>"), 95u);
}

TEST(NodeCap, TenThousandNodesRender) {
  auto g = testing::chain(10000);
  std::string svg = render_graph(*g, Format::Svg);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("… 9,"), std::string::npos);  // about 9,500 more
  EXPECT_LE(count(svg, "class=\"node\""), 505u);
}

TEST(Nesting, DeepIfsAreCollapsedBelowTheLimit) {
  // Each early return nests the rest of the function one If deeper.
  std::string src = "def f(k: int):\n";
  for (int i = 0; i < 40; ++i) {
    src += "    if k == " + std::to_string(i) + ":\n        return " + std::to_string(i) + "\n";
  }
  src += "    return -1\n";
  auto g = std::move(convert::lower_string(src).graph);
  RenderOptions o;
  o.max_cluster_depth = 5;
  std::string dot = render_graph(*g, Format::Dot, o);
  EXPECT_NE(dot.find("nested too deep to draw"), std::string::npos);
  EXPECT_LE(count(dot, "subgraph cluster_if"), 5u * 3u);
  std::string svg = render_graph(*g, Format::Svg);  // the default depth lays out too
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(Hooks, StyleNodesClustersAndEdges) {
  auto g = testing::parsed("foo1");
  RenderOptions o;
  o.hooks.node = [](const ir::Node& n, ElementStyle& s) {
    if (n.kind() == "aten::square") {
      s.attrs.set("color", "#dc2626");
      s.attrs.set("style", "rounded,dashed");
      s.badge = "lost by the trace";
    }
  };
  o.hooks.cluster = [](const ir::Node&, int block, ElementStyle& s) {
    if (block == 1) s.attrs.set("color", "#dc2626");
  };
  size_t edges = 0;
  o.hooks.edge = [&edges](const ir::Value&, const ir::Node*, Attrs& a) {
    ++edges;
    a.set("penwidth", "2");
  };
  std::string dot = render_graph(*g, Format::Dot, o);
  EXPECT_NE(dot.find("lost by the trace"), std::string::npos);
  EXPECT_NE(dot.find("rounded,dashed"), std::string::npos);
  EXPECT_GT(edges, 5u);
  EXPECT_NE(dot.find("penwidth=2"), std::string::npos);
  const size_t else_arm = dot.find("subgraph cluster_if0_else");
  ASSERT_NE(else_arm, std::string::npos);
  EXPECT_NE(dot.find("#dc2626", else_arm), std::string::npos);
}

TEST(Options, LeftToRightAndTitle) {
  auto g = testing::parsed("foo2");
  RenderOptions o;
  o.direction = Direction::LeftToRight;
  o.title = "my loop";
  std::string dot = render_graph(*g, Format::Dot, o);
  EXPECT_NE(dot.find("rankdir=LR"), std::string::npos);
  EXPECT_NE(dot.find("<B>my loop</B>"), std::string::npos);
  EXPECT_EQ(dot.find("parsed graph"), std::string::npos);
  EXPECT_NE(render_graph(*g, Format::Svg, o).find("</svg>"), std::string::npos);
}

TEST(Panels, SideBySideInTheirOwnFrames) {
  auto p = testing::parsed("foo1");
  auto t =
      testing::traced(testing::sample("foo1")->text(), {{"x", IValue(Tensor::full({1}, 0.5f))},
                                                        {"y", IValue(Tensor::full({1}, 1.5f))},
                                                        {"z", IValue(Tensor::full({1}, 0.0f))}});
  std::string svg =
      render_panels({Panel{p.get(), "parsed", {}}, Panel{t.get(), "traced", {}}}, Format::Svg);
  EXPECT_NE(svg.find("id=\"cluster_panel0\""), std::string::npos);
  EXPECT_NE(svg.find("id=\"cluster_panel1\""), std::string::npos);
  EXPECT_NE(svg.find("id=\"cluster_p0_if0\""), std::string::npos);
  EXPECT_NE(svg.find(">guard<"), std::string::npos);
}

}  // namespace
}  // namespace d2s::viz
