// Matrix products against a naive triple loop, in every matmul rank case.
#include <gtest/gtest.h>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call_error;
using test::callt;
using test::F;
using test::I;

Tensor seq(const Shape& shape, float scale = 1) {
  std::vector<float> v;
  for (int64_t i = 0; i < shape_numel(shape); ++i)
    v.push_back(static_cast<float>(i % 7 - 3) * scale);
  return F(shape, v);
}

// Naive (batched) product of row-major n x m and m x p blocks.
std::vector<float> naive(const std::vector<float>& a, const std::vector<float>& b, int64_t batch,
                         int64_t n, int64_t m, int64_t p, bool a_shared = false,
                         bool b_shared = false) {
  std::vector<float> out;
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < p; ++j) {
        float s = 0;
        for (int64_t k = 0; k < m; ++k) {
          s +=
              a[(a_shared ? 0 : z * n * m) + i * m + k] * b[(b_shared ? 0 : z * m * p) + k * p + j];
        }
        out.push_back(s);
      }
  return out;
}

TEST(Linalg, Mm) {
  Tensor a = seq({3, 4}), b = seq({4, 2}, 0.5f);
  Tensor c = callt("aten::mm", {a, b});
  ASSERT_EQ(c.shape(), (Shape{3, 2}));
  EXPECT_EQ(test::floats(c), naive(test::floats(a), test::floats(b), 1, 3, 4, 2));
  Tensor ic = callt("aten::mm", {I({2, 2}, {1, 2, 3, 4}), I({2, 1}, {5, 6})});
  EXPECT_EQ(test::ints(ic), (std::vector<int64_t>{17, 39}));
  EXPECT_EQ(callt("aten::mm", {Tensor::zeros({2, 0}), Tensor::zeros({0, 3})}).shape(),
            (Shape{2, 3}));
}

// Products big enough to be split between threads: by columns when they have few rows
// (a batch through a linear layer; 520 columns is not a whole number of the 16-column
// blocks the threads take), by rows when they have many. The entries are small integers,
// so every sum is exact in float and the split cannot change a bit.
TEST(Linalg, ThreadedProductsMatchTheNaiveLoop) {
  const struct { int64_t n, m, p; } sizes[] = {{64, 784, 512}, {64, 784, 520}, {1024, 256, 256}};
  for (const auto& s : sizes) {
    Tensor a = seq({s.n, s.m}), b = seq({s.m, s.p});
    EXPECT_EQ(test::floats(callt("aten::mm", {a, b})),
              naive(test::floats(a), test::floats(b), 1, s.n, s.m, s.p))
        << s.n << "x" << s.m << "x" << s.p;
  }
  // aten::linear multiplies by the weight transposed, its bias broadcast first.
  Tensor x = seq({64, 784}), w = seq({512, 784}), bias = seq({512});
  Tensor wt = callt("aten::contiguous", {callt("aten::t", {w})});
  std::vector<float> want = naive(test::floats(x), test::floats(wt), 1, 64, 784, 512);
  const std::vector<float> b = test::floats(bias);
  for (size_t i = 0; i < want.size(); ++i) want[i] += b[i % 512];
  EXPECT_EQ(test::floats(callt("aten::linear", {x, w, bias})), want);
  EXPECT_EQ(test::floats(callt("aten::linear", {x, w})),
            naive(test::floats(x), test::floats(wt), 1, 64, 784, 512));
}

TEST(Linalg, MmErrors) {
  EXPECT_EQ(call_error("aten::mm", {Tensor::zeros({1, 10}), Tensor::zeros({20, 20})}),
            "mat1 and mat2 shapes cannot be multiplied (1x10 and 20x20)");
  EXPECT_EQ(call_error("aten::mm", {Tensor::zeros({3}), Tensor::zeros({3, 3})}),
            "self must be a matrix");
  EXPECT_EQ(call_error("aten::mm", {Tensor::zeros({3, 3}), Tensor::zeros({3})}),
            "mat2 must be a matrix");
  EXPECT_EQ(call_error("aten::mm", {Tensor::zeros({2, 2}), Tensor::zeros({2, 2}, DType::Int64)}),
            "expected mat1 and mat2 to have the same dtype, but got: float != long int");
  EXPECT_EQ(call_error("aten::mm",
                       {Tensor::zeros({2, 2}, DType::Bool), Tensor::zeros({2, 2}, DType::Bool)}),
            "\"addmm_impl_cpu_\" not implemented for 'Bool'");
}

TEST(Linalg, MatmulVectorCases) {
  Tensor v = F({3}, {1, 2, 3}), w = F({3}, {4, 5, 6});
  Tensor d = callt("aten::matmul", {v, w});
  EXPECT_EQ(d.dim(), 0);
  EXPECT_EQ(d.item(), 32);
  Tensor m = seq({2, 3});
  Tensor mv = callt("aten::matmul", {m, v});
  EXPECT_EQ(mv.shape(), (Shape{2}));
  EXPECT_EQ(test::floats(mv), naive(test::floats(m), test::floats(v), 1, 2, 3, 1));
  Tensor m2 = seq({3, 2});
  Tensor vm = callt("aten::matmul", {v, m2});
  EXPECT_EQ(vm.shape(), (Shape{2}));
  EXPECT_EQ(test::floats(vm), naive(test::floats(v), test::floats(m2), 1, 1, 3, 2));
  EXPECT_EQ(call_error("aten::matmul", {v, F({4}, {1, 2, 3, 4})}),
            "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
            "elements, but got 3 and 4 elements respectively");
  EXPECT_EQ(call_error("aten::matmul", {m, F({4}, {1, 2, 3, 4})}),
            "size mismatch, got input (2), mat (2x3), vec (4)");
  EXPECT_EQ(call_error("aten::matmul", {F({2}, {1, 2}), m2}),
            "mat1 and mat2 shapes cannot be multiplied (1x2 and 3x2)");
  EXPECT_EQ(call_error("aten::matmul", {Tensor::scalar(1), m}),
            "both arguments to matmul need to be at least 1D, but they are 0D and 2D");
}

TEST(Linalg, MatmulBatched) {
  // 3-D x 2-D folds the batch.
  Tensor a = seq({2, 3, 4}), b = seq({4, 5});
  Tensor c = callt("aten::matmul", {a, b});
  ASSERT_EQ(c.shape(), (Shape{2, 3, 5}));
  EXPECT_EQ(test::floats(c), naive(test::floats(a), test::floats(b), 2, 3, 4, 5, false, true));
  EXPECT_EQ(call_error("aten::matmul", {a, seq({5, 5})}),
            "mat1 and mat2 shapes cannot be multiplied (6x4 and 5x5)");
  // 3-D x 1-D.
  Tensor v = seq({4});
  Tensor cv = callt("aten::matmul", {a, v});
  ASSERT_EQ(cv.shape(), (Shape{2, 3}));
  EXPECT_EQ(test::floats(cv), naive(test::floats(a), test::floats(v), 2, 3, 4, 1, false, true));
  // 2-D x 3-D broadcasts the matrix over the batch.
  Tensor m = seq({3, 4}), bb = seq({2, 4, 2});
  Tensor mb = callt("aten::matmul", {m, bb});
  ASSERT_EQ(mb.shape(), (Shape{2, 3, 2}));
  EXPECT_EQ(test::floats(mb), naive(test::floats(m), test::floats(bb), 2, 3, 4, 2, true, false));
  // 1-D x 3-D.
  Tensor v3 = seq({4});
  Tensor vb = callt("aten::matmul", {v3, bb});
  ASSERT_EQ(vb.shape(), (Shape{2, 2}));
  EXPECT_EQ(test::floats(vb), naive(test::floats(v3), test::floats(bb), 2, 1, 4, 2, true, false));
  // Broadcast batch dims: [2, 1, 3, 4] x [3, 4, 2] -> [2, 3, 3, 2].
  Tensor x = seq({2, 1, 3, 4}), y = seq({3, 4, 2}, 2);
  Tensor xy = callt("aten::matmul", {x, y});
  ASSERT_EQ(xy.shape(), (Shape{2, 3, 3, 2}));
  std::vector<float> want;
  auto xv = test::floats(x), yv = test::floats(y);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      std::vector<float> xa(xv.begin() + i * 12, xv.begin() + i * 12 + 12);
      std::vector<float> yb(yv.begin() + j * 8, yv.begin() + j * 8 + 8);
      auto part = naive(xa, yb, 1, 3, 4, 2);
      want.insert(want.end(), part.begin(), part.end());
    }
  EXPECT_EQ(test::floats(xy), want);
  EXPECT_EQ(call_error("aten::matmul", {seq({2, 3, 4}), seq({3, 4, 2})}),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
            "dimension 0");
  EXPECT_EQ(
      call_error("aten::matmul", {seq({2, 3, 4}), seq({2, 5, 2})}),
      "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].");
}

TEST(Linalg, BmmDotMvOuterAddmm) {
  Tensor a = seq({2, 2, 3}), b = seq({2, 3, 2});
  EXPECT_EQ(test::floats(callt("aten::bmm", {a, b})),
            naive(test::floats(a), test::floats(b), 2, 2, 3, 2));
  EXPECT_EQ(call_error("aten::bmm", {seq({2, 3}), b}), "batch1 must be a 3D tensor");
  EXPECT_EQ(call_error("aten::bmm", {a, seq({3, 3, 2})}),
            "batch1 and batch2 must have same number of batches, got 2 and 3");
  EXPECT_EQ(callt("aten::dot", {F({2}, {1, 2}), F({2}, {3, 4})}).item(), 11);
  EXPECT_EQ(test::floats(callt("aten::mv", {F({2, 2}, {1, 2, 3, 4}), F({2}, {1, 1})})),
            (std::vector<float>{3, 7}));
  EXPECT_EQ(test::floats(callt("aten::outer", {F({2}, {1, 2}), F({3}, {1, 10, 100})})),
            (std::vector<float>{1, 10, 100, 2, 20, 200}));
  Tensor am = callt("aten::addmm", {F({2}, {1, 1}), F({1, 2}, {1, 2}), F({2, 2}, {1, 0, 0, 1})},
                    {{"beta", IValue(2)}});
  EXPECT_EQ(test::floats(am), (std::vector<float>{3, 4}));
}

TEST(Linalg, TransposeAndPermute) {
  Tensor x = seq({2, 3});
  Tensor t = callt("aten::t", {x});
  ASSERT_EQ(t.shape(), (Shape{3, 2}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(t.data<float>()[j * 2 + i], x.data<float>()[i * 3 + j]);
  EXPECT_EQ(callt("aten::t", {F({3}, {1, 2, 3})}).shape(), (Shape{3}));
  EXPECT_EQ(call_error("aten::t", {seq({2, 2, 2})}),
            "t() expects a tensor with <= 2 dimensions, but self is 3D");
  Tensor y = seq({2, 3, 4});
  Tensor p = callt("aten::permute", {y, IValue(2), IValue(0), IValue(1)});
  ASSERT_EQ(p.shape(), (Shape{4, 2, 3}));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(p.data<float>()[k * 6 + i * 3 + j], y.data<float>()[i * 12 + j * 4 + k]);
  Tensor tr = callt("aten::transpose", {y, IValue(-1), IValue(0)});
  ASSERT_EQ(tr.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(tr.data<float>()[1 * 6 + 2 * 2 + 1], y.data<float>()[1 * 12 + 2 * 4 + 1]);
  EXPECT_EQ(call_error("aten::permute", {y, IValue::list({IValue(0), IValue(1)})}),
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = 3 is not equal to "
            "len(dims) = 2");
  EXPECT_EQ(call_error("aten::permute", {y, IValue(0), IValue(1), IValue(1)}),
            "permute(): duplicate dims are not allowed.");
}

}  // namespace
}  // namespace d2s
