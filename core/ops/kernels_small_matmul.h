// The executor's small matrix product: a float32 vector times a matrix of at most
// 64 x 64 (an RNN cell's `x @ W`), written into a buffer the caller gives, so that a
// loop can reuse one dead tensor per step instead of allocating a result.
#pragma once

#include <cstdint>

#include "core/tensor/tensor.h"

namespace d2s::kernels {

inline constexpr int64_t kSmallMatmulMax = 64;

// The columns of a @ b when it is such a product: a is [k] (matmul only) or [1, k], b
// is [k, n], both float32, 1 <= k, n <= kSmallMatmulMax; `vector` tells a 1-D result
// ([n], as matmul gives for a 1-D a) from a [1, n] one. -1 when it is not one: the
// general kernel then computes (and reports) it.
int64_t small_matmul_cols(const Tensor& a, const Tensor& b, bool mm, bool* vector);

// Writes a @ b into `out` (float32, n elements): the very Eigen product matmul's and
// mm's general path evaluates for these shapes (core/ops/kernels_linalg.cpp gemm), so the
// result has the same bits.
void small_matmul_into(const Tensor& a, const Tensor& b, Tensor& out);

}  // namespace d2s::kernels
