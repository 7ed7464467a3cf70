// Unary elementwise ops and clamp; float functions checked against <cmath>
// applied element by element.
#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::B;
using test::call_error;
using test::callt;
using test::F;
using test::I;

TEST(Unary, FloatFunctionsMatchCmath) {
  const std::vector<float> xs = {0.25f, 0.5f, 1.0f, 2.0f};
  struct Case {
    const char* op;
    float (*ref)(float);
  };
  const Case cases[] = {
      {"aten::exp", [](float x) { return std::exp(x); }},
      {"aten::log", [](float x) { return std::log(x); }},
      {"aten::log2", [](float x) { return std::log2(x); }},
      {"aten::sqrt", [](float x) { return std::sqrt(x); }},
      {"aten::rsqrt", [](float x) { return 1 / std::sqrt(x); }},
      {"aten::sin", [](float x) { return std::sin(x); }},
      {"aten::cos", [](float x) { return std::cos(x); }},
      {"aten::tanh", [](float x) { return std::tanh(x); }},
      {"aten::sigmoid", [](float x) { return 1 / (1 + std::exp(-x)); }},
      {"aten::reciprocal", [](float x) { return 1 / x; }},
      {"aten::erf", [](float x) { return std::erf(x); }},
  };
  for (const Case& c : cases) {
    Tensor out = callt(c.op, {F({4}, xs)});
    for (size_t i = 0; i < xs.size(); ++i) {
      EXPECT_FLOAT_EQ(out.data<float>()[i], c.ref(xs[i])) << c.op << " " << xs[i];
    }
  }
}

TEST(Unary, IntegerInputsBecomeFloat) {
  Tensor e = callt("aten::exp", {I({2}, {0, 1})});
  EXPECT_EQ(e.dtype(), DType::Float32);
  EXPECT_FLOAT_EQ(e.data<float>()[1], std::exp(1.0f));
  EXPECT_EQ(callt("aten::sqrt", {B({1}, {true})}).dtype(), DType::Float32);
}

TEST(Unary, SignLikeOpsKeepDtype) {
  EXPECT_EQ(test::ints(callt("aten::neg", {I({2}, {3, -4})})), (std::vector<int64_t>{-3, 4}));
  EXPECT_EQ(test::ints(callt("aten::abs", {I({2}, {3, -4})})), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(test::floats(callt("aten::abs", {F({2}, {-1.5f, 2})})), (std::vector<float>{1.5f, 2}));
  EXPECT_EQ(test::floats(callt("aten::sign", {F({3}, {-2, 0, 5})})),
            (std::vector<float>{-1, 0, 1}));
  EXPECT_EQ(test::ints(callt("aten::sign", {I({3}, {-2, 0, 5})})),
            (std::vector<int64_t>{-1, 0, 1}));
  EXPECT_EQ(test::ints(callt("aten::square", {I({2}, {-3, 4})})), (std::vector<int64_t>{9, 16}));
  EXPECT_EQ(test::ints(callt("aten::square", {B({2}, {true, false})})),
            (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(test::floats(callt("aten::relu", {F({3}, {-1, 0, 2})})), (std::vector<float>{0, 0, 2}));
  EXPECT_TRUE(std::isnan(callt("aten::relu", {F({1}, {NAN})}).data<float>()[0]));
  EXPECT_EQ(test::ints(callt("aten::relu", {I({2}, {-1, 3})})), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(call_error("aten::neg", {B({1}, {true})}),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.");
}

TEST(Unary, Rounding) {
  Tensor x = F({5}, {-1.5f, -0.5f, 0.5f, 1.5f, 2.7f});
  EXPECT_EQ(test::floats(callt("aten::floor", {x})), (std::vector<float>{-2, -1, 0, 1, 2}));
  EXPECT_EQ(test::floats(callt("aten::ceil", {x})), (std::vector<float>{-1, -0.0f, 1, 2, 3}));
  EXPECT_EQ(test::floats(callt("aten::trunc", {x})), (std::vector<float>{-1, -0.0f, 0, 1, 2}));
  // Half to even, as torch.round.
  EXPECT_EQ(test::floats(callt("aten::round", {x})), (std::vector<float>{-2, -0.0f, 0, 2, 3}));
  EXPECT_EQ(test::ints(callt("aten::floor", {I({1}, {3})})), std::vector<int64_t>{3});
}

TEST(Unary, LogicalAndBitwiseNot) {
  EXPECT_EQ(test::bools(callt("aten::logical_not", {F({3}, {0, 2, -1})})),
            (std::vector<bool>{true, false, false}));
  EXPECT_EQ(test::bools(callt("aten::bitwise_not", {B({2}, {true, false})})),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(test::ints(callt("aten::bitwise_not", {I({2}, {0, 5})})),
            (std::vector<int64_t>{-1, -6}));
  EXPECT_EQ(call_error("aten::bitwise_not", {F({1}, {1})}),
            "\"bitwise_not_cpu\" not implemented for 'Float'");
}

TEST(Clamp, ScalarAndTensorBounds) {
  Tensor x = F({4}, {-2, 0.5f, 3, NAN});
  auto c = test::floats(callt("aten::clamp", {x, IValue(0), IValue(1)}));
  EXPECT_EQ(c[0], 0);
  EXPECT_EQ(c[1], 0.5f);
  EXPECT_EQ(c[2], 1);
  EXPECT_TRUE(std::isnan(c[3]));
  EXPECT_EQ(test::floats(callt("aten::clamp", {x}, {{"min", IValue(0.0)}}))[2], 3);
  EXPECT_EQ(test::floats(callt("aten::clamp", {x}, {{"max", IValue(0)}}))[1], 0);
  // min > max gives max everywhere, as in PyTorch.
  EXPECT_EQ(test::floats(callt("aten::clamp", {F({2}, {-5, 5}), IValue(2), IValue(1)})),
            (std::vector<float>{1, 1}));
  Tensor t = callt("aten::clamp", {F({3}, {1, 5, 9}), F({3}, {2, 2, 2}), F({3}, {4, 4, 8})});
  EXPECT_EQ(test::floats(t), (std::vector<float>{2, 4, 8}));
  EXPECT_EQ(test::ints(callt("aten::clamp", {I({3}, {-5, 2, 9}), IValue(0), IValue(5)})),
            (std::vector<int64_t>{0, 2, 5}));
  EXPECT_EQ(callt("aten::clamp", {I({1}, {1}), IValue(0.5)}).dtype(), DType::Float32);
  EXPECT_EQ(call_error("aten::clamp", {x}),
            "torch.clamp: At least one of 'min' or 'max' must not be None");
}

}  // namespace
}  // namespace d2s
