// Binary elementwise ops: values derived by hand or by loops over the inputs.
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

TEST(Arith, AddSubMulDivFloat) {
  Tensor a = F({3}, {1.5f, -2, 4});
  Tensor b = F({3}, {0.5f, 3, -8});
  EXPECT_EQ(test::floats(callt("aten::add", {a, b})), (std::vector<float>{2, 1, -4}));
  EXPECT_EQ(test::floats(callt("aten::sub", {a, b})), (std::vector<float>{1, -5, 12}));
  EXPECT_EQ(test::floats(callt("aten::mul", {a, b})), (std::vector<float>{0.75f, -6, -32}));
  EXPECT_EQ(test::floats(callt("aten::div", {a, b})), (std::vector<float>{3, -2.0f / 3, -0.5f}));
  EXPECT_EQ(test::floats(callt("aten::add", {a, b}, {{"alpha", IValue(2)}})),
            (std::vector<float>{2.5f, 4, -12}));
  EXPECT_EQ(test::floats(callt("aten::sub", {a, IValue(1)}, {{"alpha", IValue(0.5)}})),
            (std::vector<float>{1, -2.5f, 3.5f}));
  // rsub(self, other) = other - alpha * self: how `2 - x` is computed.
  EXPECT_EQ(test::floats(callt("aten::rsub", {a, IValue(2)})), (std::vector<float>{0.5f, 4, -2}));
}

TEST(Arith, IntegerOps) {
  Tensor a = I({4}, {7, -7, 7, -7});
  Tensor b = I({4}, {2, 2, -2, -2});
  EXPECT_EQ(test::ints(callt("aten::add", {a, b})), (std::vector<int64_t>{9, -5, 5, -9}));
  // floor division and remainder follow Python's signs.
  EXPECT_EQ(test::ints(callt("aten::floor_divide", {a, b})), (std::vector<int64_t>{3, -4, -4, 3}));
  EXPECT_EQ(test::ints(callt("aten::remainder", {a, b})), (std::vector<int64_t>{1, 1, -1, -1}));
  for (int i = 0; i < 4; ++i) {  // a == (a // b) * b + a % b
    int64_t q = callt("aten::floor_divide", {a, b}).data<int64_t>()[i];
    int64_t r = callt("aten::remainder", {a, b}).data<int64_t>()[i];
    EXPECT_EQ(q * b.data<int64_t>()[i] + r, a.data<int64_t>()[i]);
  }
  EXPECT_EQ(test::floats(callt("aten::div", {a, b})),
            (std::vector<float>{3.5f, -3.5f, -3.5f, 3.5f}));
  EXPECT_EQ(call_error("aten::floor_divide", {a, IValue(0)}), "ZeroDivisionError");
  EXPECT_EQ(call_error("aten::remainder", {a, IValue(0)}), "ZeroDivisionError");
}

TEST(Arith, FloatFloorDivideAndRemainder) {
  Tensor a = F({4}, {7.5f, -7.5f, 7.5f, -7.5f});
  Tensor b = F({4}, {2, 2, -2, -2});
  EXPECT_EQ(test::floats(callt("aten::floor_divide", {a, b})), (std::vector<float>{3, -4, -4, 3}));
  EXPECT_EQ(test::floats(callt("aten::remainder", {a, b})),
            (std::vector<float>{1.5f, 0.5f, -0.5f, -1.5f}));
  Tensor inf = callt("aten::floor_divide", {F({1}, {1}), IValue(0.0)});
  EXPECT_TRUE(std::isinf(inf.data<float>()[0]));
}

TEST(Arith, DivRoundingModes) {
  Tensor a = F({2}, {7, -7});
  EXPECT_EQ(test::floats(callt("aten::div", {a, IValue(2)}, {{"rounding_mode", IValue("trunc")}})),
            (std::vector<float>{3, -3}));
  EXPECT_EQ(test::floats(callt("aten::div", {a, IValue(2)}, {{"rounding_mode", IValue("floor")}})),
            (std::vector<float>{3, -4}));
  EXPECT_EQ(test::ints(callt("aten::div", {I({2}, {7, -7}), IValue(2)},
                             {{"rounding_mode", IValue("trunc")}})),
            (std::vector<int64_t>{3, -3}));
  EXPECT_EQ(call_error("aten::div", {a, IValue(2)}, {{"rounding_mode", IValue("up")}}),
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'up'");
}

TEST(Arith, Pow) {
  Tensor x = F({3}, {2, -3, 0.5f});
  EXPECT_EQ(test::floats(callt("aten::pow", {x, IValue(2)})), (std::vector<float>{4, 9, 0.25f}));
  EXPECT_EQ(test::floats(callt("aten::pow", {x, IValue(3)})), (std::vector<float>{8, -27, 0.125f}));
  EXPECT_EQ(test::floats(callt("aten::pow", {x, IValue(-1)})),
            (std::vector<float>{0.5f, -1.0f / 3, 2}));
  EXPECT_EQ(test::floats(callt("aten::pow", {F({2}, {4, 9}), IValue(0.5)})),
            (std::vector<float>{2, 3}));
  EXPECT_EQ(test::floats(callt("aten::pow", {IValue(2), F({3}, {0, 1, 3})})),
            (std::vector<float>{1, 2, 8}));
  EXPECT_EQ(test::floats(callt("aten::pow", {x, F({3}, {1, 2, 1})})),
            (std::vector<float>{2, 9, 0.5f}));
  // Integer powers stay integers; a Python-number negative exponent is an error.
  EXPECT_EQ(test::ints(callt("aten::pow", {I({3}, {2, -3, 5}), IValue(3)})),
            (std::vector<int64_t>{8, -27, 125}));
  EXPECT_EQ(test::ints(callt("aten::pow", {I({3}, {1, -1, 2}), I({3}, {-2, -3, -1})})),
            (std::vector<int64_t>{1, -1, 0}));
  EXPECT_EQ(call_error("aten::pow", {I({1}, {2}), IValue(-1)}),
            "Integers to negative integer powers are not allowed.");
  EXPECT_EQ(callt("aten::pow", {I({1}, {2}), IValue(0.5)}).dtype(), DType::Float32);
}

TEST(Arith, BoolRules) {
  Tensor b = B({2}, {true, false});
  EXPECT_EQ(call_error("aten::sub", {b, b}),
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead.");
  EXPECT_EQ(call_error("aten::sub", {b, IValue(1)}),
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  EXPECT_EQ(call_error("aten::remainder", {b, b}), "\"remainder_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(test::floats(callt("aten::div", {b, b})).size(), 2u);
  EXPECT_EQ(call_error("aten::add", {I({1}, {1}), I({1}, {1})}, {{"alpha", IValue(0.5)}}),
            "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_EQ(call_error("aten::add", {F({1}, {1}), F({1}, {1})}, {{"alpha", IValue(true)}}),
            "Boolean alpha only supported for Boolean results.");
}

TEST(Arith, MaximumMinimum) {
  Tensor a = F({3}, {1, NAN, -2});
  Tensor b = F({3}, {3, 0, -5});
  auto mx = test::floats(callt("aten::maximum", {a, b}));
  EXPECT_EQ(mx[0], 3);
  EXPECT_TRUE(std::isnan(mx[1]));  // NaN propagates
  EXPECT_EQ(mx[2], -2);
  auto mn = test::floats(callt("aten::minimum", {a, b}));
  EXPECT_EQ(mn[0], 1);
  EXPECT_EQ(mn[2], -5);
  EXPECT_EQ(test::ints(callt("aten::maximum", {I({2}, {1, 5}), I({2}, {3, 2})})),
            (std::vector<int64_t>{3, 5}));
}

TEST(Compare, AllSixWithBroadcasting) {
  Tensor a = F({3}, {1, 2, 3});
  struct Case {
    const char* op;
    std::vector<bool> want;
  };
  for (const Case& c :
       {Case{"aten::lt", {true, false, false}}, Case{"aten::gt", {false, false, true}},
        Case{"aten::le", {true, true, false}}, Case{"aten::ge", {false, true, true}},
        Case{"aten::eq", {false, true, false}}, Case{"aten::ne", {true, false, true}}}) {
    EXPECT_EQ(test::bools(callt(c.op, {a, IValue(2)})), c.want) << c.op;
  }
  Tensor m = callt("aten::lt", {F({2, 1}, {0, 5}), F({3}, {1, 2, 6})});
  EXPECT_EQ(m.shape(), (Shape{2, 3}));
  EXPECT_EQ(test::bools(m), (std::vector<bool>{true, true, true, false, false, true}));
  EXPECT_FALSE(test::bools(callt("aten::eq", {F({1}, {NAN}), F({1}, {NAN})}))[0]);
}

TEST(Logical, AndOrXorNot) {
  Tensor a = B({4}, {true, true, false, false});
  Tensor b = B({4}, {true, false, true, false});
  EXPECT_EQ(test::bools(callt("aten::logical_and", {a, b})), (std::vector<bool>{1, 0, 0, 0}));
  EXPECT_EQ(test::bools(callt("aten::logical_or", {a, b})), (std::vector<bool>{1, 1, 1, 0}));
  EXPECT_EQ(test::bools(callt("aten::logical_xor", {a, b})), (std::vector<bool>{0, 1, 1, 0}));
  EXPECT_EQ(test::bools(callt("aten::logical_and", {F({2}, {2, 0}), I({2}, {1, 1})})),
            (std::vector<bool>{1, 0}));
  EXPECT_EQ(test::bools(callt("aten::__and__", {a, b})), (std::vector<bool>{1, 0, 0, 0}));
  EXPECT_EQ(test::bools(callt("aten::__or__", {a, b})), (std::vector<bool>{1, 1, 1, 0}));
  EXPECT_EQ(test::bools(callt("aten::__xor__", {a, b})), (std::vector<bool>{0, 1, 1, 0}));
  EXPECT_EQ(test::ints(callt("aten::__and__", {I({2}, {6, 5}), IValue(3)})),
            (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(call_error("aten::__and__", {F({1}, {1}), F({1}, {1})}),
            "\"bitwise_and_cpu\" not implemented for 'Float'");
}

TEST(Where, SelectsAndPromotes) {
  Tensor c = B({2, 2}, {true, false, false, true});
  Tensor out = callt("aten::where", {c, F({2}, {1, 2}), IValue(0)});
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_EQ(test::floats(out), (std::vector<float>{1, 0, 0, 2}));
  Tensor ints = callt("aten::where", {B({3}, {true, false, true}), I({3}, {1, 2, 3}), IValue(-1)});
  EXPECT_EQ(test::ints(ints), (std::vector<int64_t>{1, -1, 3}));
  Tensor promoted = callt("aten::where", {B({1}, {false}), I({1}, {1}), IValue(0.5)});
  EXPECT_EQ(test::floats(promoted), std::vector<float>{0.5f});
  EXPECT_EQ(call_error("aten::where", {F({1}, {1}), IValue(1), IValue(0)}),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
}

TEST(MaskedFill, BroadcastsTheMask) {
  Tensor x = F({2, 2}, {1, 2, 3, 4});
  Tensor out = callt("aten::masked_fill", {x, B({2}, {false, true}), IValue(-1.5)});
  EXPECT_EQ(test::floats(out), (std::vector<float>{1, -1.5f, 3, -1.5f}));
  EXPECT_EQ(call_error("aten::masked_fill", {x, F({2}, {0, 1}), IValue(0)}),
            "masked_fill_ only supports boolean masks, but got mask with dtype float32");
}

TEST(InPlace, WritesThroughAliases) {
  Tensor x = F({2}, {1, 2});
  Tensor alias = x.view_as_shape({2});
  Tensor r = callt("aten::add_", {x, F({2}, {10, 20})});
  EXPECT_TRUE(r.is_same(x));
  EXPECT_EQ(test::floats(alias), (std::vector<float>{11, 22}));
  callt("aten::mul_", {x, IValue(2)});
  EXPECT_EQ(test::floats(x), (std::vector<float>{22, 44}));
  EXPECT_EQ(call_error("aten::add_", {I({1}, {1}), IValue(0.5)}),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(call_error("aten::add_", {F({1}, {1}), F({2}, {1, 2})}),
            "output with shape [1] doesn't match the broadcast shape [2]");
  EXPECT_EQ(call_error("aten::add_", {IValue(1), F({1}, {1})}),
            "in-place operations need a Tensor, not int");
}

}  // namespace
}  // namespace d2s
