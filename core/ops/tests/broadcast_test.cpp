#include "core/tensor/broadcast.h"

#include <gtest/gtest.h>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call_error;
using test::callt;
using test::error_of;

TEST(Broadcast, Shapes) {
  EXPECT_EQ(broadcast_shapes({2, 3}, {3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes({2, 1}, {1, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes({}, {4, 1}), (Shape{4, 1}));
  EXPECT_EQ(broadcast_shapes({5, 1, 4}, {3, 1}), (Shape{5, 3, 4}));
  EXPECT_EQ(broadcast_shapes({0}, {1}), (Shape{0}));
  EXPECT_EQ(error_of([] {
              broadcast_shapes({1, 20}, {1, 10});
            }),
            "The size of tensor a (20) must match the size of tensor b (10) at non-singleton "
            "dimension 1");
  // The dimension index counts in the result, aligned from the right.
  EXPECT_EQ(error_of([] {
              broadcast_shapes({3, 2, 4}, {5, 4});
            }),
            "The size of tensor a (2) must match the size of tensor b (5) at non-singleton "
            "dimension 1");
}

TEST(Broadcast, Strides) {
  EXPECT_EQ(contiguous_strides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(broadcast_strides({3, 1}, {2, 3, 4}), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(broadcast_strides({1}, {1}), (std::vector<int64_t>{1}));
}

TEST(Broadcast, Promotion) {
  auto f = IValue(test::F({2}, {1, 2}));
  auto i = IValue(test::I({2}, {1, 2}));
  auto b = IValue(test::B({2}, {true, false}));
  auto i0 = IValue(Tensor::scalar(1, DType::Int64));
  EXPECT_EQ(result_type(f, IValue(2)), DType::Float32);    // float tensor + int
  EXPECT_EQ(result_type(i, IValue(0.5)), DType::Float32);  // int64 tensor + float
  EXPECT_EQ(result_type(i, IValue(true)), DType::Int64);
  EXPECT_EQ(result_type(b, IValue(1)), DType::Int64);  // bool tensor + int
  EXPECT_EQ(result_type(b, IValue(true)), DType::Bool);
  EXPECT_EQ(result_type(b, i0), DType::Int64);  // 0-d int64 tensor
  EXPECT_EQ(result_type(i0, f), DType::Float32);
  EXPECT_EQ(result_type(IValue(1), IValue(2)), DType::Int64);
  EXPECT_EQ(promote_types(DType::Bool, DType::Bool), DType::Bool);
  EXPECT_EQ(error_of([] { operand_dtype(IValue("x")); }), "expected a Tensor or a number, got str");
}

// Broadcast binary ops against an independent index computation.
TEST(Broadcast, AddMatchesLoopReference) {
  Tensor a = test::F({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = test::F({4, 1}, {10, 20, 30, 40});
  Tensor out = callt("aten::add", {a, b});
  ASSERT_EQ(out.shape(), (Shape{2, 4, 3}));
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) want.push_back(a.data<float>()[i * 3 + k] + b.data<float>()[j]);
  EXPECT_EQ(test::floats(out), want);
}

TEST(Broadcast, MulBothSidesBroadcast) {
  Tensor a = test::I({3, 1}, {1, 2, 3});
  Tensor b = test::I({1, 4}, {1, 10, 100, 1000});
  Tensor out = callt("aten::mul", {a, b});
  std::vector<int64_t> want;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) want.push_back(a.data<int64_t>()[i] * b.data<int64_t>()[j]);
  EXPECT_EQ(test::ints(out), want);
}

TEST(Broadcast, EmptyAndScalarShapes) {
  Tensor e = callt("aten::add", {Tensor::zeros({0, 3}), test::F({3}, {1, 2, 3})});
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
  Tensor s = callt("aten::add", {Tensor::scalar(1), Tensor::scalar(2)});
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.item(), 3.0);
  EXPECT_EQ(call_error("aten::add", {Tensor::zeros({1, 20}), Tensor::zeros({1, 10})}),
            "The size of tensor a (20) must match the size of tensor b (10) at non-singleton "
            "dimension 1");
}

TEST(Broadcast, ResultDtypesOfOps) {
  Tensor i = test::I({2}, {3, 4});
  Tensor bt = test::B({2}, {true, false});
  EXPECT_EQ(callt("aten::add", {i, IValue(0.5)}).dtype(), DType::Float32);
  EXPECT_EQ(test::floats(callt("aten::add", {i, IValue(0.5)})), (std::vector<float>{3.5, 4.5}));
  EXPECT_EQ(callt("aten::mul", {test::F({1}, {2}), IValue(3)}).dtype(), DType::Float32);
  // True division of integers gives float32.
  EXPECT_EQ(test::floats(callt("aten::div", {i, IValue(2)})), (std::vector<float>{1.5, 2}));
  // bool + bool stays bool (logical or); bool * bool is logical and; bool + int is int64.
  EXPECT_EQ(test::bools(callt("aten::add", {bt, bt})), (std::vector<bool>{true, false}));
  EXPECT_EQ(test::bools(callt("aten::mul", {bt, IValue(true)})), (std::vector<bool>{true, false}));
  EXPECT_EQ(test::ints(callt("aten::add", {bt, IValue(1)})), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(callt("aten::lt", {i, IValue(3.5)}).dtype(), DType::Bool);
  EXPECT_EQ(test::bools(callt("aten::lt", {i, IValue(3.5)})), (std::vector<bool>{true, false}));
}

}  // namespace
}  // namespace d2s
