// Folding: which runs of a block become one ×N box.
#include "viz/fold.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/ir/ir.h"

namespace d2s::viz {
namespace {

// A block whose nodes have these kinds at these lines ("c" is a constant).
struct Block {
  explicit Block(const std::vector<std::pair<const char*, int>>& spec)
      : file(std::make_shared<SourceFile>("m.py", std::string(20, '\n'))) {
    ir::Value* x = g.add_input("x", ir::Type::tensor());
    for (const auto& [kind, line] : spec) {
      SourceRange r(file, line, 1);
      if (std::string(kind) == "c") {
        g.insert_constant(IValue(int64_t{line}), r);
      } else {
        x = g.insert(kind, {x}, 1, r)->output();
      }
    }
    for (const ir::Node* n : g.block()->nodes()) nodes.push_back(n);
  }
  std::vector<FoldItem> fold(size_t min_repeats = 3, size_t max_period = 32) {
    Folder f(nodes, min_repeats, max_period);
    std::vector<FoldItem> items;
    while (!f.done()) items.push_back(f.next());
    return items;
  }
  std::shared_ptr<SourceFile> file;
  ir::Graph g;
  std::vector<const ir::Node*> nodes;
};

TEST(Fold, SingleNodeRepeats) {
  Block b({{"aten::tanh", 1}, {"aten::tanh", 1}, {"aten::tanh", 1}, {"aten::tanh", 1}});
  auto items = b.fold();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].repeats, 4u);
  EXPECT_EQ(items[0].period, 1u);
  EXPECT_EQ(items[0].begin, 0u);
  EXPECT_EQ(items[0].end, 4u);
}

TEST(Fold, ConstantsBetweenMembersBelongToTheRun) {
  // The loop index a trace bakes differs per iteration: it must not break the run.
  Block b({{"aten::relu", 1},
           {"c", 2},
           {"aten::add", 2},
           {"aten::mul", 3},
           {"c", 2},
           {"aten::add", 2},
           {"aten::mul", 3},
           {"c", 2},
           {"aten::add", 2},
           {"aten::mul", 3},
           {"aten::sum", 4}});
  auto items = b.fold();
  ASSERT_EQ(items.size(), 4u);
  EXPECT_FALSE(items[0].folded());  // relu
  EXPECT_FALSE(items[1].folded());  // the constant before the run's first member
  EXPECT_TRUE(items[2].folded());
  EXPECT_EQ(items[2].period, 2u);
  EXPECT_EQ(items[2].repeats, 3u);
  EXPECT_EQ(items[2].begin, 2u);
  EXPECT_EQ(items[2].end, 10u);
  EXPECT_FALSE(items[3].folded());  // sum
}

TEST(Fold, TooFewRepeatsStayApart) {
  Block b({{"aten::tanh", 1}, {"aten::tanh", 1}, {"aten::relu", 2}});
  auto items = b.fold();
  EXPECT_EQ(items.size(), 3u);
  for (const FoldItem& i : items) EXPECT_FALSE(i.folded());
  auto two = b.fold(2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].repeats, 2u);
}

TEST(Fold, DifferentLinesDoNotFold) {
  Block b({{"aten::tanh", 1}, {"aten::tanh", 2}, {"aten::tanh", 3}, {"aten::tanh", 4}});
  for (const FoldItem& i : b.fold()) EXPECT_FALSE(i.folded());
}

TEST(Fold, PicksThePeriodThatCoversMost) {
  // (a b b) ×3: period 1 covers only "b b", period 3 covers all nine nodes.
  std::vector<std::pair<const char*, int>> spec;
  for (int i = 0; i < 3; ++i) {
    spec.push_back({"aten::mm", 1});
    spec.push_back({"aten::tanh", 2});
    spec.push_back({"aten::tanh", 2});
  }
  Block b(spec);
  auto items = b.fold();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].period, 3u);
  EXPECT_EQ(items[0].repeats, 3u);
}

TEST(Fold, OffWhenMinRepeatsIsZero) {
  Block b({{"aten::tanh", 1}, {"aten::tanh", 1}, {"aten::tanh", 1}, {"aten::tanh", 1}});
  EXPECT_EQ(b.fold(0).size(), 4u);
}

TEST(Fold, ALongRunFoldsInOnePass) {
  ir::Graph g;
  auto file = std::make_shared<SourceFile>("m.py", "x = x + 1\n");
  ir::Value* x = g.add_input("x", ir::Type::tensor());
  for (int i = 0; i < 50'000; ++i) {
    x = g.insert("aten::tanh", {x}, 1, SourceRange(file, 1, 1))->output();
  }
  std::vector<const ir::Node*> nodes;
  for (const ir::Node* n : g.block()->nodes()) nodes.push_back(n);
  Folder f(nodes, 3, 32);
  FoldItem item = f.next();
  EXPECT_TRUE(f.done());
  EXPECT_EQ(item.repeats, 50'000u);
}

}  // namespace
}  // namespace d2s::viz
