// The generator against a from-scratch reference of docs/random.md, and the
// order in which random ops draw.
#include "core/tensor/random.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call;

// Reference, written straight from the published algorithms.
struct Reference {
  uint64_t s[4];
  explicit Reference(uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; ++i) {
      x += 0x9E3779B97F4A7C15ull;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      s[i] = z ^ (z >> 31);
    }
  }
  static uint64_t rotl(uint64_t v, int k) { return (v << k) | (v >> (64 - k)); }
  uint64_t next() {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  double uniform() { return static_cast<double>(next() >> 40) / 16777216.0; }
  // One Box–Muller pair, in double, as docs/random.md specifies.
  std::pair<float, float> normal_pair() {
    double u1 = uniform(), u2 = uniform();
    double r = std::sqrt(-2.0 * std::log(1.0 - u1));
    return {static_cast<float>(r * std::cos(6.283185307179586 * u2)),
            static_cast<float>(r * std::sin(6.283185307179586 * u2))};
  }
};

TEST(Random, SplitMixSeedingIsTheStandardOne) {
  // splitmix64's first output from state 0 is a published test value.
  EXPECT_EQ(Reference(0).s[0], 0xE220A8397B1DCDAFull);
}

TEST(Random, MatchesReference) {
  for (uint64_t seed : {0ull, 1ull, 42ull, 0xFFFFFFFFFFFFFFFFull}) {
    Generator g(seed);
    Reference ref(seed);
    for (int i = 0; i < 100; ++i) ASSERT_EQ(g.next_u64(), ref.next()) << seed << " " << i;
  }
}

TEST(Random, UniformIsTop24Bits) {
  Generator g(7);
  Reference ref(7);
  for (int i = 0; i < 1000; ++i) {
    float u = g.uniform();
    ASSERT_EQ(static_cast<double>(u), ref.uniform());
    ASSERT_GE(u, 0.0f);
    ASSERT_LT(u, 1.0f);
  }
}

TEST(Random, NormalUsesBothValuesOfEachPair) {
  Generator g(3);
  Reference ref(3);
  for (int i = 0; i < 50; ++i) {
    auto [z0, z1] = ref.normal_pair();
    ASSERT_EQ(g.normal(), z0);
    ASSERT_EQ(g.normal(), z1);
  }
}

TEST(Random, SameSeedSameNumbers) {
  Generator a(11), b(11), c(12);
  EXPECT_EQ(a.next_u64(), b.next_u64());
  EXPECT_NE(Generator(11).next_u64(), c.next_u64());
}

TEST(Random, RandAndRandnFillRowMajor) {
  Generator g(5);
  Tensor r = call("aten::rand", {IValue::int_list({2, 3})}, {}, &g).to_tensor();
  Reference ref(5);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(r.data<float>()[i], static_cast<float>(ref.uniform()));
  // The generator continues where rand left off; an odd count keeps a spare.
  Tensor n = call("aten::randn", {IValue(3)}, {}, &g).to_tensor();
  auto p1 = ref.normal_pair();
  auto p2 = ref.normal_pair();
  EXPECT_EQ(n.data<float>()[0], p1.first);
  EXPECT_EQ(n.data<float>()[1], p1.second);
  EXPECT_EQ(n.data<float>()[2], p2.first);
  EXPECT_EQ(g.normal(), p2.second);
}

TEST(Random, Randint) {
  Generator g(9);
  Tensor t =
      call("aten::randint", {IValue(-3), IValue(4), IValue::int_list({5})}, {}, &g).to_tensor();
  ASSERT_EQ(t.dtype(), DType::Int64);
  Reference ref(9);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(t.data<int64_t>()[i], -3 + static_cast<int64_t>(ref.next() % 7));
  }
  Tensor h = call("aten::randint", {IValue(10), IValue::int_list({2})}, {}, &g).to_tensor();
  EXPECT_EQ(h.shape(), (Shape{2}));
  EXPECT_EQ(test::error_of([&] {
              call("aten::randint", {IValue(5), IValue(5), IValue::int_list({1})}, {}, &g);
            }),
            "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
}

TEST(Random, RandomOpsNeedAGenerator) {
  EXPECT_EQ(test::call_error("aten::rand", {IValue(2)}),
            "rand(): no random generator was given to this call");
  EXPECT_EQ(test::call_error("aten::randn", {IValue(2)}),
            "randn(): no random generator was given to this call");
  EXPECT_TRUE(OpRegistry::builtin().find_qualified("aten::rand")->is_random());
  EXPECT_TRUE(OpRegistry::builtin().find_qualified("aten::dropout")->is_random());
  EXPECT_FALSE(OpRegistry::builtin().find_qualified("aten::zeros")->is_random());
}

TEST(Random, RandRejectsIntegerDtypes) {
  Generator g(1);
  EXPECT_EQ(test::error_of([&] {
              call("aten::rand", {IValue(2)}, {{"dtype", IValue(4)}}, &g);
            }),
            "\"check_uniform_bounds\" not implemented for 'Long'");
}

}  // namespace
}  // namespace d2s
