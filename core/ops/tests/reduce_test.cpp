// Reductions over all elements and over dims, checked against loops.
#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::B;
using test::call;
using test::call_error;
using test::callt;
using test::F;
using test::I;

// x[i][j][k] = i*100 + j*10 + k on a 2x3x4 tensor.
Tensor cube() {
  std::vector<float> v;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) v.push_back(static_cast<float>(i * 100 + j * 10 + k));
  return F({2, 3, 4}, v);
}
float at(int i, int j, int k) {
  return static_cast<float>(i * 100 + j * 10 + k);
}

TEST(Reduce, SumWholeAndDims) {
  Tensor x = cube();
  float total = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) total += at(i, j, k);
  Tensor s = callt("aten::sum", {x});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item(), total);

  Tensor s1 = callt("aten::sum", {x, IValue(1)});
  ASSERT_EQ(s1.shape(), (Shape{2, 4}));
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      float want = 0;
      for (int j = 0; j < 3; ++j) want += at(i, j, k);
      EXPECT_EQ(s1.data<float>()[i * 4 + k], want);
    }

  Tensor s02 =
      callt("aten::sum", {x, IValue::list({IValue(0), IValue(-1)})}, {{"keepdim", IValue(true)}});
  ASSERT_EQ(s02.shape(), (Shape{1, 3, 1}));
  for (int j = 0; j < 3; ++j) {
    float want = 0;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) want += at(i, j, k);
    EXPECT_EQ(s02.data<float>()[j], want);
  }
  EXPECT_EQ(call_error("aten::sum", {x, IValue::list({IValue(0), IValue(0)})}),
            "dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(call_error("aten::sum", {x, IValue(3)}),
            "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST(Reduce, SumDtypes) {
  Tensor b = callt("aten::sum", {B({3}, {true, true, false})});
  EXPECT_EQ(b.dtype(), DType::Int64);
  EXPECT_EQ(b.item(), 2);
  EXPECT_EQ(callt("aten::sum", {I({2}, {3, 4})}).item(), 7);
  Tensor f = callt("aten::sum", {I({2}, {3, 4})}, {{"dtype", IValue(6)}});
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(callt("aten::sum", {Tensor::zeros({0})}).item(), 0);
}

TEST(Reduce, Mean) {
  Tensor x = cube();
  Tensor m = callt("aten::mean", {x, IValue(2)});
  ASSERT_EQ(m.shape(), (Shape{2, 3}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float want = (at(i, j, 0) + at(i, j, 1) + at(i, j, 2) + at(i, j, 3)) / 4;
      EXPECT_FLOAT_EQ(m.data<float>()[i * 3 + j], want);
    }
  EXPECT_FLOAT_EQ(callt("aten::mean", {F({4}, {1, 2, 3, 4})}).item(), 2.5);
  EXPECT_TRUE(std::isnan(callt("aten::mean", {Tensor::zeros({0})}).item()));
  EXPECT_EQ(call_error("aten::mean", {I({2}, {1, 2})}),
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            "complex dtype. Got: Long");
}

TEST(Reduce, MaxMinWithIndices) {
  Tensor x = F({2, 3}, {1, 5, 5, -1, -7, -7});
  EXPECT_EQ(callt("aten::max", {x}).item(), 5);
  EXPECT_EQ(callt("aten::min", {x}).item(), -7);
  IValue r = call("aten::max", {x, IValue(1)});
  ASSERT_TRUE(r.is_tuple());
  EXPECT_EQ(test::floats(r.tuple_items()[0].to_tensor()), (std::vector<float>{5, -1}));
  // Ties give the first index.
  EXPECT_EQ(test::ints(r.tuple_items()[1].to_tensor()), (std::vector<int64_t>{1, 0}));
  IValue k = call("aten::min", {x}, {{"dim", IValue(0)}, {"keepdim", IValue(true)}});
  EXPECT_EQ(k.tuple_items()[0].to_tensor().shape(), (Shape{1, 3}));
  EXPECT_EQ(test::ints(k.tuple_items()[1].to_tensor()), (std::vector<int64_t>{1, 1, 1}));
  // max(x, y) with a tensor (or a float) is elementwise; with an int it is max.dim.
  EXPECT_EQ(test::floats(callt("aten::max", {x, Tensor::zeros({3})})),
            (std::vector<float>{1, 5, 5, 0, 0, 0}));
  EXPECT_EQ(test::floats(callt("aten::min", {x, IValue(0.0)})),
            (std::vector<float>{0, 0, 0, -1, -7, -7}));
  Tensor n = callt("aten::max", {F({3}, {1, NAN, 2})});
  EXPECT_TRUE(std::isnan(n.item()));
  EXPECT_EQ(call_error("aten::max", {Tensor::zeros({0})}),
            "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
            "reduction dim with the 'dim' argument.");
  EXPECT_EQ(call_error("aten::max", {Tensor::zeros({2, 0}), IValue(1)}),
            "max(): Expected reduction dim 1 to have non-zero size.");
  EXPECT_EQ(test::floats(callt("aten::amax", {x, IValue(0)})), (std::vector<float>{1, 5, 5}));
}

TEST(Reduce, ArgmaxArgmin) {
  Tensor x = F({2, 3}, {1, 9, 9, 4, 0, 4});
  Tensor a = callt("aten::argmax", {x});
  EXPECT_EQ(a.dtype(), DType::Int64);
  EXPECT_EQ(a.dim(), 0);
  EXPECT_EQ(a.item(), 1);  // flattened, first of the ties
  EXPECT_EQ(test::ints(callt("aten::argmax", {x, IValue(1)})), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(test::ints(callt("aten::argmin", {x, IValue(0)})), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(callt("aten::argmax", {x}, {{"keepdim", IValue(true)}}).shape(), (Shape{1, 1}));
  EXPECT_EQ(callt("aten::argmax", {x, IValue(1), IValue(true)}).shape(), (Shape{2, 1}));
  EXPECT_EQ(call_error("aten::argmax", {Tensor::zeros({0})}),
            "argmax(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument.");
}

TEST(Reduce, Norm) {
  Tensor x = F({2, 2}, {3, -4, 0, 1});
  EXPECT_FLOAT_EQ(callt("aten::norm", {x}).item(), std::sqrt(26.0f));
  EXPECT_FLOAT_EQ(callt("aten::norm", {x, IValue(1)}).item(), 8);
  EXPECT_FLOAT_EQ(callt("aten::norm", {x, IValue(INFINITY)}).item(), 4);
  EXPECT_FLOAT_EQ(callt("aten::norm", {x, IValue(0)}).item(), 3);
  EXPECT_FLOAT_EQ(callt("aten::norm", {x, IValue(3)}).item(), std::cbrt(27.0f + 64 + 1));
  Tensor d = callt("aten::norm", {x}, {{"dim", IValue(1)}});
  EXPECT_EQ(test::floats(d), (std::vector<float>{5, 1}));
  Tensor k = callt("aten::norm", {x, IValue(2), IValue(0), IValue(true)});
  EXPECT_EQ(k.shape(), (Shape{1, 2}));
  EXPECT_FLOAT_EQ(k.data<float>()[1], std::sqrt(17.0f));
  EXPECT_EQ(call_error("aten::norm", {I({1}, {1})}),
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long");
}

TEST(Reduce, ProdAllAny) {
  Tensor x = F({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(callt("aten::prod", {x}).item(), 24);
  EXPECT_EQ(test::floats(callt("aten::prod", {x, IValue(1)})), (std::vector<float>{2, 12}));
  EXPECT_EQ(callt("aten::prod", {I({2}, {3, 5})}).dtype(), DType::Int64);
  Tensor b = B({2, 2}, {true, false, true, true});
  EXPECT_FALSE(callt("aten::all", {b}).item());
  EXPECT_TRUE(callt("aten::any", {b}).item());
  EXPECT_EQ(test::bools(callt("aten::all", {b, IValue(0)})), (std::vector<bool>{true, false}));
  EXPECT_EQ(test::bools(callt("aten::any", {F({2}, {0, 0.5f})}, {})), std::vector<bool>{true});
  EXPECT_TRUE(callt("aten::all", {Tensor::zeros({0})}).item());
}

TEST(Reduce, VarStdLogsumexp) {
  Tensor x = F({4}, {1, 2, 3, 4});
  EXPECT_FLOAT_EQ(callt("aten::var", {x}).item(), 5.0f / 3);
  EXPECT_FLOAT_EQ(callt("aten::var", {x, IValue(false)}).item(), 1.25f);
  EXPECT_FLOAT_EQ(callt("aten::std", {x}).item(), std::sqrt(5.0f / 3));
  EXPECT_FLOAT_EQ(callt("aten::logsumexp", {x, IValue(0)}).item(),
                  std::log(std::exp(1.0f) + std::exp(2.0f) + std::exp(3.0f) + std::exp(4.0f)));
}

TEST(Reduce, ZeroDimTensors) {
  Tensor s = Tensor::scalar(3);
  EXPECT_EQ(callt("aten::sum", {s, IValue(0)}).item(), 3);
  EXPECT_EQ(callt("aten::argmax", {s, IValue(0)}).item(), 0);
  EXPECT_EQ(call("aten::max", {s, IValue(-1)}).tuple_items()[0].to_tensor().item(), 3);
}

}  // namespace
}  // namespace d2s
