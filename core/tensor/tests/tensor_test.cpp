#include "core/tensor/tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/tensor/tests/tensor_test_util.h"

namespace d2s {
namespace {

using test::error_of;

TEST(Tensor, DtypeNamesAndCodes) {
  EXPECT_STREQ(dtype_name(DType::Float32), "float32");
  EXPECT_STREQ(dtype_torch_name(DType::Int64), "torch.int64");
  DType d;
  ASSERT_TRUE(parse_dtype("long", &d));
  EXPECT_EQ(d, DType::Int64);
  ASSERT_TRUE(parse_dtype("torch.bool", &d));
  EXPECT_EQ(d, DType::Bool);
  ASSERT_TRUE(parse_dtype("float", &d));
  EXPECT_EQ(d, DType::Float32);
  EXPECT_FALSE(parse_dtype("float64", &d));
  // TorchScript's ScalarType numbering.
  EXPECT_EQ(dtype_scalar_type(DType::Int64), 4);
  EXPECT_EQ(dtype_scalar_type(DType::Float32), 6);
  EXPECT_EQ(dtype_scalar_type(DType::Bool), 11);
  ASSERT_TRUE(dtype_from_scalar_type(6, &d));
  EXPECT_EQ(d, DType::Float32);
  EXPECT_FALSE(dtype_from_scalar_type(7, &d));  // float64 is not supported
}

TEST(Tensor, ShapeHelpers) {
  EXPECT_EQ(shape_str({1, 20}), "[1, 20]");
  EXPECT_EQ(shape_str({}), "[]");
  EXPECT_EQ(shape_numel({}), 1);
  EXPECT_EQ(shape_numel({2, 0, 5}), 0);
  EXPECT_EQ(shape_numel({int64_t{1} << 40, int64_t{1} << 40}),
            std::numeric_limits<int64_t>::max());  // saturates
}

TEST(Tensor, CreationAndLimits) {
  Tensor z = Tensor::zeros({2, 3}, DType::Int64);
  EXPECT_EQ(z.numel(), 6);
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(z.data<int64_t>()[i], 0);
  Tensor f = Tensor::full({2}, 2.5);
  EXPECT_EQ(f.data<float>()[1], 2.5f);
  EXPECT_EQ(error_of([] {
              Tensor::empty({-1, 3}, DType::Float32);
            }),
            "Trying to create tensor with negative dimension -1: [-1, 3]");
  EXPECT_NE(error_of([] {
              Tensor::empty({1 << 20, 1 << 20}, DType::Float32);
            }).find("too large"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              Tensor::from_floats({3}, {1, 2});
            }).find("needs 3 values"),
            std::string::npos);
  Tensor s = Tensor::scalar(3, DType::Int64);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item(), 3.0);
}

TEST(Tensor, SizeWrapsNegativeDims) {
  Tensor t = Tensor::zeros({2, 3});
  EXPECT_EQ(t.size(-1), 3);
  EXPECT_EQ(t.size(0), 2);
  EXPECT_EQ(error_of([&] { t.size(2); }),
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  Tensor s = Tensor::scalar(1);
  EXPECT_EQ(error_of([&] { s.size(1); }),
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(Tensor, ViewsShareStorageClonesDoNot) {
  Tensor t = test::F({2, 2}, {1, 2, 3, 4});
  Tensor v = t.view_as_shape({4});
  EXPECT_TRUE(v.shares_storage(t));
  EXPECT_FALSE(v.is_same(t));
  v.data<float>()[0] = 9;
  EXPECT_EQ(t.data<float>()[0], 9);
  Tensor c = t.clone();
  EXPECT_FALSE(c.shares_storage(t));
  c.data<float>()[1] = 7;
  EXPECT_EQ(t.data<float>()[1], 2);
  EXPECT_EQ(error_of([&] { t.view_as_shape({3}); }), "shape '[3]' is invalid for input of size 4");
}

TEST(Tensor, ItemNeedsOneElement) {
  EXPECT_EQ(error_of([] {
              test::F({2}, {1, 2}).item();
            }),
            "a Tensor with 2 elements cannot be converted to Scalar");
  EXPECT_EQ(test::F({1, 1}, {4}).item(), 4.0);
}

TEST(Tensor, DtypeConversions) {
  Tensor f = test::F({5}, {1.7f, -1.7f, 0.0f, NAN, 3e20f});
  Tensor i = f.to(DType::Int64);
  // Truncation toward zero; NaN and out-of-range give INT64_MIN as on x86.
  std::vector<int64_t> want = {1, -1, 0, std::numeric_limits<int64_t>::min(),
                               std::numeric_limits<int64_t>::min()};
  EXPECT_EQ(test::ints(i), want);
  Tensor b = f.to(DType::Bool);
  EXPECT_EQ(test::bools(b), (std::vector<bool>{true, true, false, true, true}));
  Tensor back = test::B({2}, {true, false}).to(DType::Float32);
  EXPECT_EQ(test::floats(back), (std::vector<float>{1, 0}));
  Tensor same = f.to(DType::Float32);
  EXPECT_FALSE(same.shares_storage(f));  // to() always copies
}

}  // namespace
}  // namespace d2s
