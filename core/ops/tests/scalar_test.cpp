// Python-number semantics of the scalar overloads.
#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call;
using test::call_error;

IValue c2(const char* op, IValue a, IValue b) {
  return call(op, {a, b});
}

TEST(Scalar, IntArithmeticStaysInt) {
  IValue s = c2("aten::add", IValue(2), IValue(3));
  ASSERT_TRUE(s.is_int());
  EXPECT_EQ(s.to_int(), 5);
  EXPECT_EQ(c2("aten::sub", IValue(2), IValue(5)).to_int(), -3);
  EXPECT_EQ(c2("aten::mul", IValue(-4), IValue(3)).to_int(), -12);
  // True division gives a float.
  IValue d = c2("aten::div", IValue(7), IValue(2));
  ASSERT_TRUE(d.is_double());
  EXPECT_EQ(d.to_double(), 3.5);
  // bool acts as int: True + True == 2.
  IValue b = c2("aten::add", IValue(true), IValue(true));
  ASSERT_TRUE(b.is_int());
  EXPECT_EQ(b.to_int(), 2);
  IValue f = c2("aten::add", IValue(1), IValue(0.5));
  ASSERT_TRUE(f.is_double());
  EXPECT_EQ(f.to_double(), 1.5);
  EXPECT_EQ(call_error("aten::add", {IValue(INT64_MAX), IValue(1)}),
            "OverflowError: integer result does not fit in 64 bits (d2s ints are 64-bit)");
}

TEST(Scalar, FloorDivAndModFollowPythonSigns) {
  const int64_t as[] = {7, -7, 7, -7};
  const int64_t bs[] = {2, 2, -2, -2};
  const int64_t q[] = {3, -4, -4, 3};
  const int64_t m[] = {1, 1, -1, -1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(c2("aten::floor_divide", IValue(as[i]), IValue(bs[i])).to_int(), q[i]);
    EXPECT_EQ(c2("aten::floordiv", IValue(as[i]), IValue(bs[i])).to_int(), q[i]);
    EXPECT_EQ(c2("aten::remainder", IValue(as[i]), IValue(bs[i])).to_int(), m[i]);
  }
  EXPECT_EQ(c2("aten::floor_divide", IValue(7.5), IValue(-2)).to_double(), -4.0);
  EXPECT_EQ(c2("aten::remainder", IValue(-7.5), IValue(2)).to_double(), 0.5);
  EXPECT_EQ(c2("aten::remainder", IValue(5.0), IValue(-5.0)).to_double(), -0.0);
  EXPECT_TRUE(std::signbit(c2("aten::remainder", IValue(5.0), IValue(-5.0)).to_double()));
  EXPECT_EQ(call_error("aten::floor_divide", {IValue(1), IValue(0)}),
            "ZeroDivisionError: integer division or modulo by zero");
  EXPECT_EQ(call_error("aten::remainder", {IValue(1), IValue(0)}),
            "ZeroDivisionError: integer division or modulo by zero");
  EXPECT_EQ(call_error("aten::div", {IValue(1), IValue(0)}), "ZeroDivisionError: division by zero");
  EXPECT_EQ(call_error("aten::floor_divide", {IValue(1.0), IValue(0.0)}),
            "ZeroDivisionError: float floor division by zero");
  EXPECT_EQ(call_error("aten::remainder", {IValue(1.0), IValue(0)}),
            "ZeroDivisionError: float modulo");
}

TEST(Scalar, Pow) {
  IValue p = c2("aten::pow", IValue(2), IValue(10));
  ASSERT_TRUE(p.is_int());
  EXPECT_EQ(p.to_int(), 1024);
  IValue n = c2("aten::pow", IValue(2), IValue(-1));
  ASSERT_TRUE(n.is_double());
  EXPECT_EQ(n.to_double(), 0.5);
  EXPECT_EQ(c2("aten::pow", IValue(2.0), IValue(3)).to_double(), 8.0);
  IValue fp = c2("aten::float_power", IValue(2), IValue(3));  // math.pow
  ASSERT_TRUE(fp.is_double());
  EXPECT_EQ(fp.to_double(), 8.0);
  EXPECT_EQ(call_error("aten::pow", {IValue(0), IValue(-1)}),
            "ZeroDivisionError: 0.0 cannot be raised to a negative power");
  EXPECT_NE(call_error("aten::pow", {IValue(-8.0), IValue(0.5)}).find("complex"),
            std::string::npos);
  EXPECT_NE(call_error("aten::pow", {IValue(3), IValue(100)}).find("OverflowError"),
            std::string::npos);
}

TEST(Scalar, NegAbsBitwise) {
  EXPECT_EQ(call("aten::neg", {IValue(3)}).to_int(), -3);
  EXPECT_EQ(call("aten::neg", {IValue(2.5)}).to_double(), -2.5);
  EXPECT_EQ(call("aten::abs", {IValue(-3)}).to_int(), 3);
  EXPECT_TRUE(call("aten::fabs", {IValue(-3)}).is_double());
  EXPECT_EQ(call("aten::bitwise_not", {IValue(5)}).to_int(), -6);
  EXPECT_EQ(call("aten::bitwise_not", {IValue(true)}).to_int(), -2);  // ~True == -2
  EXPECT_EQ(c2("aten::__and__", IValue(true), IValue(false)).to_bool(), false);
  EXPECT_TRUE(c2("aten::__or__", IValue(true), IValue(false)).is_bool());
  EXPECT_EQ(c2("aten::__xor__", IValue(6), IValue(3)).to_int(), 5);
}

TEST(Scalar, Comparisons) {
  EXPECT_TRUE(c2("aten::lt", IValue(1), IValue(2)).to_bool());
  EXPECT_TRUE(c2("aten::le", IValue(2), IValue(2.0)).to_bool());
  EXPECT_FALSE(c2("aten::gt", IValue(1.5), IValue(2)).to_bool());
  EXPECT_TRUE(c2("aten::eq", IValue(true), IValue(1)).to_bool());
  EXPECT_TRUE(c2("aten::ne", IValue("a"), IValue("b")).to_bool());
  EXPECT_TRUE(c2("aten::lt", IValue("a"), IValue("b")).to_bool());
  EXPECT_TRUE(
      c2("aten::eq", IValue::int_list({2, 3}), IValue::tuple({IValue(2), IValue(3)})).to_bool());
  EXPECT_TRUE(c2("aten::ne", IValue::int_list({2, 3}), IValue::int_list({2})).to_bool());
}

TEST(Scalar, Conversions) {
  EXPECT_EQ(call("aten::Int", {IValue(2.9)}).to_int(), 2);
  EXPECT_EQ(call("aten::Int", {IValue(-2.9)}).to_int(), -2);
  EXPECT_EQ(call("aten::Int", {IValue(true)}).to_int(), 1);
  EXPECT_EQ(call("aten::Int", {IValue(" 42")}).to_int(), 42);
  EXPECT_EQ(call("aten::Int", {test::F({1}, {3.7f})}).to_int(), 3);
  EXPECT_EQ(call("aten::Int", {test::I({1, 1}, {-5})}).to_int(), -5);
  EXPECT_EQ(call_error("aten::Int", {IValue(NAN)}),
            "ValueError: cannot convert float NaN to integer");
  EXPECT_EQ(call_error("aten::Int", {IValue(INFINITY)}),
            "OverflowError: cannot convert float infinity to integer");
  EXPECT_EQ(call_error("aten::Int", {IValue("x")}),
            "ValueError: invalid literal for int() with base 10: 'x'");
  EXPECT_EQ(call_error("aten::Int", {test::F({2}, {1, 2})}),
            "only one element tensors can be converted to Python scalars");
  EXPECT_EQ(call("aten::Float", {IValue(2)}).to_double(), 2.0);
  EXPECT_TRUE(call("aten::Float", {IValue(2)}).is_double());
  EXPECT_EQ(call("aten::Float", {IValue("1.5")}).to_double(), 1.5);
  EXPECT_EQ(call("aten::Float", {test::I({1}, {3})}).to_double(), 3.0);
  EXPECT_EQ(call_error("aten::Float", {test::F({2}, {1, 2})}),
            "only one element tensors can be converted to Python scalars");
}

TEST(Scalar, TruthValues) {
  EXPECT_TRUE(call("aten::Bool", {IValue(2)}).to_bool());
  EXPECT_FALSE(call("aten::Bool", {IValue(0.0)}).to_bool());
  EXPECT_FALSE(call("aten::Bool", {IValue("")}).to_bool());
  EXPECT_FALSE(call("aten::Bool", {IValue()}).to_bool());
  EXPECT_TRUE(call("aten::Bool", {IValue::list({IValue(0)})}).to_bool());
  EXPECT_TRUE(call("aten::Bool", {test::F({1}, {0.5f})}).to_bool());
  EXPECT_EQ(call_error("aten::Bool", {test::F({2}, {1, 0})}),
            "RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
  EXPECT_EQ(call_error("aten::__not__", {test::B({3}, {true, true, true})}),
            "RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
  EXPECT_TRUE(call("aten::__not__", {IValue(0)}).to_bool());
  EXPECT_FALSE(call("aten::__not__", {test::B({1}, {true})}).to_bool());
}

TEST(Scalar, ItemLenStr) {
  IValue f = call("aten::item", {test::F({1}, {0.5f})});
  ASSERT_TRUE(f.is_double());
  EXPECT_EQ(f.to_double(), 0.5);
  EXPECT_TRUE(call("aten::item", {test::I({1}, {3})}).is_int());
  EXPECT_TRUE(call("aten::item", {test::B({1}, {true})}).is_bool());
  EXPECT_EQ(call_error("aten::item", {test::F({2}, {1, 2})}),
            "a Tensor with 2 elements cannot be converted to Scalar");
  EXPECT_EQ(call("aten::len", {Tensor::zeros({4, 2})}).to_int(), 4);
  EXPECT_EQ(call("aten::len", {IValue::list({IValue(1), IValue(2)})}).to_int(), 2);
  EXPECT_EQ(call("aten::len", {IValue("abc")}).to_int(), 3);
  EXPECT_EQ(call_error("aten::len", {Tensor::scalar(1)}), "TypeError: len() of a 0-d tensor");
  EXPECT_EQ(call_error("aten::len", {IValue(3)}), "TypeError: object of type 'int' has no len()");
  EXPECT_EQ(call("aten::str", {IValue(0.1)}).to_string(), "0.1");
  EXPECT_EQ(c2("aten::add", IValue("a"), IValue("b")).to_string(), "ab");
  IValue cat = c2("aten::add", IValue::list({IValue(1)}), IValue::list({IValue(2)}));
  EXPECT_EQ(cat.to_int_list(), (std::vector<int64_t>{1, 2}));
}

TEST(Scalar, MathFunctions) {
  EXPECT_EQ(call("aten::sqrt", {IValue(4)}).to_double(), 2.0);
  EXPECT_EQ(call("aten::exp", {IValue(0.0)}).to_double(), 1.0);
  EXPECT_EQ(call("aten::log", {IValue(8.0), IValue(2)}).to_double(), 3.0);
  EXPECT_EQ(call("aten::atan2", {IValue(1.0), IValue(1.0)}).to_double(), std::atan2(1.0, 1.0));
  IValue fl = call("aten::floor", {IValue(-2.5)});
  ASSERT_TRUE(fl.is_int());
  EXPECT_EQ(fl.to_int(), -3);
  EXPECT_EQ(call("aten::ceil", {IValue(2.1)}).to_int(), 3);
  EXPECT_EQ(call("aten::round", {IValue(2.5)}).to_int(), 2);  // half to even
  EXPECT_EQ(call("aten::round", {IValue(3.5)}).to_int(), 4);
  EXPECT_TRUE(call("aten::isnan", {IValue(NAN)}).to_bool());
  EXPECT_EQ(test::bools(call("aten::isinf", {test::F({2}, {INFINITY, 1})}).to_tensor()),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(call_error("aten::sqrt", {IValue(-1)}), "ValueError: math domain error");
  EXPECT_EQ(call_error("aten::log", {IValue(0)}), "ValueError: math domain error");
  EXPECT_EQ(call_error("aten::exp", {IValue(1000)}), "OverflowError: math range error");
}

TEST(Scalar, BuiltinMinMax) {
  EXPECT_EQ(c2("prim::max", IValue(2), IValue(5)).to_int(), 5);
  IValue m = c2("prim::max", IValue(2), IValue(1.0));
  ASSERT_TRUE(m.is_int());  // the argument itself, as Python returns it
  EXPECT_EQ(c2("prim::min", IValue(2.5), IValue(1)).to_int(), 1);
  EXPECT_EQ(call("prim::max", {IValue::list({IValue(1), IValue(7), IValue(3)})}).to_int(), 7);
  EXPECT_EQ(call_error("prim::min", {IValue::list({})}),
            "ValueError: min() arg is an empty sequence");
}

}  // namespace
}  // namespace d2s
