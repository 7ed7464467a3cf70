// Internal to core/: what the kernel files share. The register_* functions fill
// the builtin registry (OpRegistry::builtin() calls them in order: that order is
// overload order); the helpers below read bound arguments and run elementwise
// loops. Free of Eigen, which only the kernel .cpp files include.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ops/op_registry.h"
#include "core/tensor/broadcast.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s::kernels {

void register_scalar(OpRegistry& r);       // kernels_scalar.cpp: Python numbers
void register_create(OpRegistry& r);       // kernels_create.cpp
void register_elementwise(OpRegistry& r);  // kernels_elementwise.cpp: binary, compare
void register_unary(OpRegistry& r);        // kernels_unary.cpp: unary math, clamp
void register_reduce(OpRegistry& r);       // kernels_reduce.cpp
void register_linalg(OpRegistry& r);       // kernels_linalg.cpp
void register_shape(OpRegistry& r);        // kernels_shape.cpp
void register_nn(OpRegistry& r);           // kernels_nn.cpp
void register_loss(OpRegistry& r);         // kernels_loss.cpp (and ctc_loss.cpp through it)
void register_ctc_loss(OpRegistry& r);     // ctc_loss.cpp: aten::ctc_loss
void register_conv(OpRegistry& r);         // kernels_conv.cpp: conv1d, conv2d
void register_pool(OpRegistry& r);         // kernels_pool.cpp: max, avg, adaptive pools
void register_activation(OpRegistry& r);   // kernels_activation.cpp: hardtanh, elu, ...
void register_norm(OpRegistry& r);         // kernels_norm.cpp: batch_norm, group_norm, prelu, ...
void register_loss_prob(OpRegistry& r);    // kernels_loss_prob.cpp: kl_div, binary_cross_entropy
void register_rnn(OpRegistry& r);          // kernels_rnn.cpp: lstm, gru, rnn_*, cells
void register_embedding(OpRegistry& r);    // kernels_embedding.cpp
void register_index(OpRegistry& r);        // kernels_index.cpp: index, index_put
void register_sort(OpRegistry& r);         // kernels_sort.cpp: sort, topk, cumsum, gather, ...
void register_tensorops(OpRegistry& r);    // kernels_tensorops.cpp: baddbmm, fmod, new_*, ...
void register_einsum(OpRegistry& r);       // kernels_einsum.cpp
void register_diagonal(OpRegistry& r);     // kernels_diagonal.cpp: diagonal, diag_embed
void register_as_strided(OpRegistry& r);   // kernels_as_strided.cpp: as_strided
void register_list(OpRegistry& r);         // kernels_list.cpp: append, pop, _set_item, ...
void register_str(OpRegistry& r);          // kernels_str.cpp: join, split, upper, ...

// Transposed convolution (kernels_conv_transpose.cpp), upsample_* and
// pixel_shuffle/unshuffle (kernels_resize.cpp), aten::pad (kernels_pad.cpp).
void register_conv_transpose(OpRegistry& r);
void register_resize(OpRegistry& r);
void register_resample_taps(OpRegistry& r);  // kernels_resample_taps.cpp: bicubic, trilinear
void register_pad(OpRegistry& r);

// Throws the d2s::Error a kernel reports (no range: OpRegistry::call adds it).
[[noreturn]] void fail(const std::string& message);
// The storage positions as_strided(size, stride, offset) reads, row-major over size, on
// a storage of `storage_numel` elements; PyTorch's errors (kernels_as_strided.cpp).
std::vector<int64_t> as_strided_positions(const std::vector<int64_t>& size,
                                          const std::vector<int64_t>& stride, int64_t offset,
                                          int64_t storage_numel);

// A Tensor argument: the tensor itself, or a Python number wrapped as a 0-d
// tensor of its category (bool, int64, float32), as PyTorch wraps scalars.
Tensor tensor_arg(const IValue& v);
// A bound ScalarType? argument (an int code; see dtype_scalar_type).
std::optional<DType> dtype_arg(const IValue& v);
// PyTorch's maybe_wrap_dim: a negative dim counts from the end; 0-d tensors
// accept -1 and 0. Throws "Dimension out of range (...)".
int64_t wrap_dim(int64_t dim, int64_t ndim);
// A Python number as an IValue of the given dtype's category.
IValue number_of(double v, DType d);
// A tensor element converted back to a Python number (item()).
IValue item_of(const Tensor& t);
// Copies t unless it already has this dtype (then returns it, aliased).
Tensor as_dtype(const Tensor& t, DType d);
// Argument i as the buffer of an elementwise result of its own shape and of `dtype`
// (its own dtype when none is given), when the executor marked it dead
// (OpContext::dead_args), nothing else refers to it or its storage and it needs no
// gradient; else an undefined tensor. The kernel must read each input element before
// it writes the output element at the same index (out[i] = f(a[i], ...)).
Tensor reusable_arg(const OpContext& ctx, const ValueList& args, size_t i,
                    std::optional<DType> dtype = std::nullopt);

// Shared between kernel files (the registration order of overloads forces some
// ops of one family to be registered by another file's register_* function).
enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, Rem, Pow, Maximum, Minimum };
// The tensor op with broadcasting and type promotion (`a` and `b` as bound
// Tensor arguments: tensors or numbers).
Tensor binary_op(BinaryOp op, const IValue& a, const IValue& b);
// The same, writing the result into `reuse` where the float32 fast path applies:
// `reuse` is undefined or a tensor that reusable_arg gave for a result of a's shape.
Tensor binary_op(BinaryOp op, const IValue& a, const IValue& b, Tensor reuse);
// The in-place forms (add_, relu_, ...): `result`, computed out of place from self,
// converted to self's dtype and written into self's storage, so that every alias of
// self sees it; returns self. PyTorch's errors for a result of another shape or of a
// dtype self cannot hold.
Tensor write_in_place(const IValue& self, const Tensor& result);
// 2-D matrix product with PyTorch's checks and messages (kernels_linalg.cpp).
Tensor mm(const Tensor& a, const Tensor& b);
// nn.Linear's input @ weight^T + bias for a 2-D float32 input, in one product that
// reads the weight in place (kernels_linalg.cpp). False, with nothing done, where
// it does not apply; the general path then checks and reports.
bool linear_2d(const Tensor& input, const Tensor& weight, const IValue& bias, Tensor* result);
// a @ b for every rank combination (kernels_linalg.cpp).
Tensor matmul(const Tensor& a, const Tensor& b);
// Python's str.format over positional values (kernels_format.cpp).
std::string python_format(const std::string& fmt, const ValueList& args);
// Copies a tensor with its dimensions permuted (kernels_linalg.cpp).
Tensor permute(const Tensor& t, const std::vector<int64_t>& dims);
// The inverse of strided_copy: writes the contiguous `src` (of `shape`, same
// dtype as dst) into dst at the elements that strided_copy would read.
void strided_write(Tensor& dst, const Shape& shape, const std::vector<int64_t>& strides,
                   int64_t offset, const Tensor& src);
// A contiguous copy of t broadcast to `shape` (t must broadcast to it).
Tensor broadcast_to(const Tensor& t, const Shape& shape);
// A contiguous tensor of `shape` whose element at index i is t's element at
// `offset + sum(i[d] * strides[d])`: the copy behind permute, select, slice,
// expand. Strides may be 0 (repeat an element), never negative.
Tensor strided_copy(const Tensor& t, const Shape& shape, const std::vector<int64_t>& strides,
                    int64_t offset);

template <typename T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return DType::Float32;
  if constexpr (std::is_same_v<T, int64_t>) return DType::Int64;
  return DType::Bool;
}

// Calls f with a value of the C++ type of `d` (float, int64_t or bool), so that
// one generic lambda serves every dtype without per-element dispatch.
template <typename F>
decltype(auto) dispatch(DType d, F&& f) {
  switch (d) {
    case DType::Float32:
      return f(float{});
    case DType::Int64:
      return f(int64_t{});
    case DType::Bool:
      break;
  }
  return f(bool{});
}

// out[i] = f(a[i]) over contiguous data.
template <typename A, typename O, typename F>
void unary_loop(const Tensor& a, Tensor& out, F f) {
  const A* pa = a.data<A>();
  O* po = out.data<O>();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i]);
}

// Calls body(offsets) for each row of the innermost dimension of `shape`, with
// the starting offset of each operand (given by its strides), then the caller
// steps along the row by the last stride. The odometer is shared by the binary
// and ternary loops below.
template <size_t N, typename Body>
void for_each_row(const Shape& shape, const std::vector<int64_t> (&strides)[N], Body body) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  const int64_t rows = nd == 0 ? 1 : shape_numel(shape) / shape[nd - 1];
  if (shape_numel(shape) == 0) return;
  std::vector<int64_t> idx(nd, 0);
  int64_t off[N] = {};
  for (int64_t row = 0; row < rows; ++row) {
    body(row, off);
    for (int64_t d = nd - 2; d >= 0; --d) {
      if (++idx[d] < shape[d]) {
        for (size_t k = 0; k < N; ++k) off[k] += strides[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) off[k] -= strides[k][d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
}

// out = f(a, b) with broadcasting; out already has the broadcast shape.
template <typename A, typename B, typename O, typename F>
void binary_loop(const Tensor& a, const Tensor& b, Tensor& out, F f) {
  const A* pa = a.data<A>();
  const B* pb = b.data<B>();
  O* po = out.data<O>();
  const Shape& os = out.shape();
  const int64_t n = out.numel();
  // The common cases first: same shapes, or one side a single value.
  if (a.shape() == os && b.shape() == os) {
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    return;
  }
  if (b.numel() == 1 && a.shape() == os) {
    const B y = pb[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], y);
    return;
  }
  if (a.numel() == 1 && b.shape() == os) {
    const A x = pa[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(x, pb[i]);
    return;
  }
  const std::vector<int64_t> strides[2] = {broadcast_strides(a.shape(), os),
                                           broadcast_strides(b.shape(), os)};
  const int64_t inner = os.back();
  const int64_t sa = strides[0].back(), sb = strides[1].back();
  for_each_row(os, strides, [&](int64_t row, const int64_t* off) {
    O* o = po + row * inner;
    for (int64_t j = 0; j < inner; ++j) o[j] = f(pa[off[0] + j * sa], pb[off[1] + j * sb]);
  });
}

// out = f(c, a, b) with broadcasting of all three (torch.where).
template <typename C, typename T, typename F>
void ternary_loop(const Tensor& c, const Tensor& a, const Tensor& b, Tensor& out, F f) {
  const Shape& os = out.shape();
  if (out.numel() == 0) return;
  const C* pc = c.data<C>();
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* po = out.data<T>();
  const std::vector<int64_t> strides[3] = {broadcast_strides(c.shape(), os),
                                           broadcast_strides(a.shape(), os),
                                           broadcast_strides(b.shape(), os)};
  const int64_t inner = os.empty() ? 1 : os.back();
  const int64_t s0 = os.empty() ? 0 : strides[0].back();
  const int64_t s1 = os.empty() ? 0 : strides[1].back();
  const int64_t s2 = os.empty() ? 0 : strides[2].back();
  for_each_row(os, strides, [&](int64_t row, const int64_t* off) {
    T* o = po + row * inner;
    for (int64_t j = 0; j < inner; ++j) {
      o[j] = f(pc[off[0] + j * s0], pa[off[1] + j * s1], pb[off[2] + j * s2]);
    }
  });
}

}  // namespace d2s::kernels
