#include <gtest/gtest.h>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call_error;
using test::callt;
using test::F;

TEST(Create, ZerosOnesFull) {
  Tensor z = callt("aten::zeros", {IValue(2), IValue(3)});
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  EXPECT_EQ(test::floats(z), std::vector<float>(6, 0));
  Tensor o = callt("aten::ones", {IValue::tuple({IValue(2)})}, {{"dtype", IValue(4)}});
  EXPECT_EQ(test::ints(o), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(callt("aten::ones", {IValue::list({})}).dim(), 0);
  // full infers its dtype from the fill value.
  EXPECT_EQ(callt("aten::full", {IValue::tuple({IValue(2)}), IValue(7)}).dtype(), DType::Int64);
  EXPECT_EQ(callt("aten::full", {IValue::tuple({IValue(2)}), IValue(true)}).dtype(), DType::Bool);
  EXPECT_EQ(test::floats(callt("aten::full", {IValue::tuple({IValue(2)}), IValue(0.5)})),
            (std::vector<float>{0.5f, 0.5f}));
  EXPECT_EQ(call_error("aten::zeros", {IValue(-1)}),
            "Trying to create tensor with negative dimension -1: [-1]");
}

TEST(Create, RequiresGradAndDevice) {
  Tensor t = callt("aten::zeros", {IValue(2)}, {{"requires_grad", IValue(true)}});
  EXPECT_TRUE(t.requires_grad());
  EXPECT_FALSE(callt("aten::zeros", {IValue(2)}).requires_grad());
  EXPECT_EQ(call_error("aten::zeros", {IValue(2)},
                       {{"dtype", IValue(4)}, {"requires_grad", IValue(true)}}),
            "Only Tensors of floating point and complex dtype can require gradients");
  EXPECT_EQ(callt("aten::ones", {IValue(1)}, {{"device", IValue("cpu")}}).numel(), 1);
  EXPECT_EQ(call_error("aten::ones", {IValue(1)}, {{"device", IValue("cuda")}}),
            "d2s runs on the CPU only; got device 'cuda'");
}

TEST(Create, Like) {
  Tensor x = test::I({2, 2}, {1, 2, 3, 4});
  Tensor z = callt("aten::zeros_like", {x});
  EXPECT_EQ(z.shape(), x.shape());
  EXPECT_EQ(z.dtype(), DType::Int64);
  EXPECT_EQ(callt("aten::ones_like", {x}, {{"dtype", IValue(6)}}).dtype(), DType::Float32);
  EXPECT_EQ(test::ints(callt("aten::full_like", {x, IValue(5)})), std::vector<int64_t>(4, 5));
}

TEST(Create, Arange) {
  EXPECT_EQ(test::ints(callt("aten::arange", {IValue(4)})), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(test::ints(callt("aten::arange", {IValue(1), IValue(7), IValue(2)})),
            (std::vector<int64_t>{1, 3, 5}));
  EXPECT_EQ(test::ints(callt("aten::arange", {IValue(5), IValue(0), IValue(-2)})),
            (std::vector<int64_t>{5, 3, 1}));
  EXPECT_EQ(test::floats(callt("aten::arange", {IValue(0), IValue(1), IValue(0.25)})),
            (std::vector<float>{0, 0.25f, 0.5f, 0.75f}));
  EXPECT_EQ(callt("aten::arange", {IValue(2.5)}).numel(), 3);
  EXPECT_EQ(callt("aten::arange", {IValue(3)}, {{"dtype", IValue(6)}}).dtype(), DType::Float32);
  EXPECT_EQ(call_error("aten::arange", {IValue(0), IValue(1), IValue(0)}), "step must be nonzero");
  EXPECT_EQ(call_error("aten::arange", {IValue(5), IValue(0)}),
            "upper bound and larger bound inconsistent with step sign");
}

TEST(Create, EyeLinspace) {
  EXPECT_EQ(test::floats(callt("aten::eye", {IValue(2)})), (std::vector<float>{1, 0, 0, 1}));
  Tensor e = callt("aten::eye", {IValue(2), IValue(3)});
  EXPECT_EQ(test::floats(e), (std::vector<float>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(call_error("aten::eye", {IValue(-1)}), "n must be greater or equal to 0, got -1");
  EXPECT_EQ(test::floats(callt("aten::linspace", {IValue(0), IValue(1), IValue(5)})),
            (std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1}));
}

TEST(Create, TensorFromData) {
  IValue nested =
      IValue::list({IValue::list({IValue(1), IValue(2)}), IValue::list({IValue(3), IValue(4)})});
  Tensor t = callt("aten::tensor", {nested});
  EXPECT_EQ(t.shape(), (Shape{2, 2}));
  EXPECT_EQ(test::ints(t), (std::vector<int64_t>{1, 2, 3, 4}));
  Tensor f = callt("aten::tensor", {IValue::list({IValue(1), IValue(2.5)})});
  EXPECT_EQ(test::floats(f), (std::vector<float>{1, 2.5f}));
  EXPECT_EQ(callt("aten::tensor", {IValue::list({IValue(true), IValue(false)})}).dtype(),
            DType::Bool);
  Tensor s = callt("aten::tensor", {IValue(3.0)});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item(), 3);
  Tensor e = callt("aten::tensor", {IValue::list({})});
  EXPECT_EQ(e.shape(), Shape{0});
  EXPECT_EQ(e.dtype(), DType::Float32);
  Tensor d = callt("aten::tensor", {IValue::list({IValue(1)})},
                   {{"dtype", IValue(6)}, {"requires_grad", IValue(true)}});
  EXPECT_EQ(d.dtype(), DType::Float32);
  EXPECT_TRUE(d.requires_grad());
  Tensor fromt = callt("aten::tensor", {IValue::list({IValue(Tensor::scalar(2)), IValue(3)})});
  EXPECT_EQ(test::floats(fromt), (std::vector<float>{2, 3}));
  EXPECT_EQ(
      call_error("aten::tensor",
                 {IValue::list({IValue::list({IValue(1), IValue(2)}), IValue::list({IValue(3)})})}),
      "expected sequence of length 2 at dim 1 (got 1)");
  EXPECT_EQ(call_error("aten::tensor", {IValue::list({IValue(1), IValue::list({IValue(2)})})}),
            "expected a number at dim 1 of the tensor data, got list");
  EXPECT_EQ(call_error("aten::tensor", {IValue::list({IValue("a")})}),
            "Could not infer dtype of str");
}

}  // namespace
}  // namespace d2s

namespace d2s {
namespace {

TEST(Create, LimitsAndExactInts) {
  EXPECT_EQ(
      test::ints(test::callt("aten::full", {IValue::tuple({IValue(1)}), IValue(int64_t{1} << 60)})),
      std::vector<int64_t>{int64_t{1} << 60});
  EXPECT_NE(test::call_error("aten::arange", {IValue(1e300)}).find("too large"), std::string::npos);
  EXPECT_NE(test::call_error("aten::zeros", {IValue(int64_t{1} << 40), IValue(int64_t{1} << 40)})
                .find("too large"),
            std::string::npos);
  EXPECT_NE(
      test::call_error("aten::repeat", {Tensor::zeros({2}), IValue(INT64_MAX)}).find("too large"),
      std::string::npos);
}

}  // namespace
}  // namespace d2s
