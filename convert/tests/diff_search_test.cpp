// Counterexamples: inputs of the given shapes that go the lost way, on which the
// plain trace and the parsed graph give different answers.
#include "convert/tests/diff_test_util.h"

namespace d2s::convert {
namespace {

using testing::counterexample_at;
using testing::diff_sample;
using testing::quick;

void expect_counterexample(const char* sample, int set, int line) {
  SCOPED_TRACE(std::string(sample) + " set " + std::to_string(set));
  DiffReport r = diff_sample(sample, set, quick(true));
  const Counterexample* c = counterexample_at(r, line);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->found);
  EXPECT_TRUE(c->differs);
  EXPECT_TRUE(c->traced_error.empty()) << c->traced_error;
  EXPECT_GT(c->tries, 0);
  EXPECT_LE(c->tries, 200);
  EXPECT_FALSE(c->changed.empty());
  EXPECT_FALSE(c->how.empty());
  EXPECT_FALSE(c->detail.empty());
  ASSERT_EQ(c->traced.size(), c->parsed.size());
  // The given shapes are kept.
  const std::vector<DiffInputSet> sets = testing::sample_sets(sample, set);
  for (const auto& [name, v] : c->inputs) {
    for (const auto& [n, given] : sets[c->base_set].inputs) {
      if (n == name && v.is_tensor()) {
        EXPECT_EQ(v.to_tensor().shape(), given.to_tensor().shape());
      }
    }
  }
}

TEST(DiffSearch, Foo1BothWays) {
  expect_counterexample("foo1", 0, 9);
  expect_counterexample("foo1", 1, 9);
}

TEST(DiffSearch, RnnCellBothWays) {
  expect_counterexample("rnn_cell", 0, 10);
  expect_counterexample("rnn_cell", 1, 10);
}

TEST(DiffSearch, ElifConditionalExpressionAndDataLoop) {
  expect_counterexample("nested_ifs", 2, 14);
  expect_counterexample("item_arith", 0, 12);      // `a if c else b`, decided by a trace
  expect_counterexample("while_converge", 0, 11);  // another trip count
}

TEST(DiffSearch, Foo1Example) {
  DiffReport r = diff_sample("foo1", 0, quick(true));
  const Counterexample* c = counterexample_at(r, 9);
  ASSERT_TRUE(c);
  // x = 0.5, y = 1.5 takes `x + y`; the first candidate with x >= y is x * 10 (the
  // order: x * -1, x * 0.1, x * 10, ...).
  EXPECT_EQ(c->how, "x * 10");
  EXPECT_EQ(c->changed, std::vector<std::string>{"x"});
  EXPECT_EQ(c->tries, 3);
  ASSERT_EQ(c->traced.size(), 1u);
  EXPECT_FLOAT_EQ(static_cast<float>(c->traced[0].to_tensor().item()), 6.5f);   // x + y
  EXPECT_FLOAT_EQ(static_cast<float>(c->parsed[0].to_tensor().item()), 2.25f);  // square(y)
}

TEST(DiffSearch, ReproducibleAndBounded) {
  DiffReport a = diff_sample("rnn_cell", 1, quick(true));
  DiffReport b = diff_sample("rnn_cell", 1, quick(true));
  ASSERT_EQ(a.counterexamples.size(), 1u);
  ASSERT_EQ(b.counterexamples.size(), 1u);
  EXPECT_EQ(a.counterexamples[0].how, b.counterexamples[0].how);
  EXPECT_EQ(a.counterexamples[0].tries, b.counterexamples[0].tries);

  DiffOptions none = quick(true);
  none.max_search_tries = 0;
  DiffReport r = diff_sample("foo1", 0, none);
  ASSERT_EQ(r.counterexamples.size(), 1u);
  EXPECT_FALSE(r.counterexamples[0].found);
  EXPECT_EQ(r.counterexamples[0].tries, 0);

  // Nothing to search for: no counterexamples.
  EXPECT_TRUE(diff_sample("mlp", -1, quick(true)).counterexamples.empty());
  EXPECT_TRUE(diff_sample("foo2", -1, quick(true)).counterexamples.empty());
}

}  // namespace
}  // namespace d2s::convert
