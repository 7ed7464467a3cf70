// The executor's small vector x matrix product (kernels_small_matmul.h). Compiled with
// the other kernels' options (core/CMakeLists.txt), so that the Eigen product below is
// the same code as gemm's in kernels_linalg.cpp.
#include "core/ops/kernels_small_matmul.h"

#include <Eigen/Core>

namespace d2s::kernels {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

bool small(int64_t d) {
  return d >= 1 && d <= kSmallMatmulMax;
}

}  // namespace

int64_t small_matmul_cols(const Tensor& a, const Tensor& b, bool mm, bool* vector) {
  if (!a.defined() || !b.defined() || a.dtype() != DType::Float32 || b.dtype() != DType::Float32 ||
      b.dim() != 2) {
    return -1;
  }
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  if (sa.size() == 1 && !mm) {
    *vector = true;
  } else if (sa.size() == 2 && sa[0] == 1) {
    *vector = false;
  } else {
    return -1;
  }
  const int64_t k = sa.back();
  if (!small(k) || sb[0] != k || !small(sb[1])) return -1;
  return sb[1];
}

void small_matmul_into(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t m = b.shape()[0], p = b.shape()[1];
  // gemm(a, b, out, 1, 1, m, p) as mm runs it: a product of one row on one thread.
  Eigen::Map<const RowMat> ma(a.data<float>(), 1, m);
  Eigen::Map<const RowMat> mb(b.data<float>(), m, p);
  Eigen::Map<RowMat> mo(out.data<float>(), 1, p);
  mo.middleRows(0, 1).noalias() = ma.middleRows(0, 1) * mb;
}

}  // namespace d2s::kernels
