// How a view lies in its base's storage: the record a view tensor carries
// (TensorImpl::view) and PyTorch's strides computed from it. Kernels that must know a
// tensor's layout (reshape, view, as_strided) read it here; keeping a family of views
// in step after a write is core/autograd/views.h's job.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor/ivalue.h"

namespace d2s {

struct OpDef;  // core/ops/op_registry.h

// One op of the way from a base to a view: the op, its arguments with the first
// (self) to be replaced, and which item of a list result it is (-1: the result).
struct ViewStep {
  const OpDef* op = nullptr;
  ValueList args;
  int64_t output_index = -1;
};

struct ViewMeta {
  Tensor base;                   // the root: never itself a view
  std::vector<ViewStep> steps;   // base → this view
  std::vector<int64_t> strides;  // PyTorch's, in elements of the base's storage
  int64_t offset = 0;
  bool created_in_no_grad = false;
  bool multi_output = false;  // an output of unbind/split/chunk
  // A multi-output piece whose family was written after it was taken: its elements are
  // the new ones, but PyTorch regenerates no history for it, so using it in an op
  // that records is PyTorch's error, which starts with this (see check_read_of_view).
  std::string stale_head;
};

struct ViewFamily {
  std::vector<std::weak_ptr<TensorImpl>> views;
  size_t pruned_size = 0;  // size after the last pruning of expired entries
};

// PyTorch's at::detail::computeStride: the strides of a view of `newshape` on a tensor
// of `oldshape` and `oldstride`, or none when no such view exists.
std::optional<std::vector<int64_t>> compute_stride(const Shape& oldshape,
                                                   const std::vector<int64_t>& oldstride,
                                                   const Shape& newshape);
// Row-major strides of a shape (a dimension of size 0 counts as 1).
std::vector<int64_t> row_major_strides(const Shape& shape);
// PyTorch's strides of t (row-major for a tensor that is no view).
std::vector<int64_t> strides_of(const Tensor& t);
bool is_contiguous(const Tensor& t);
// The strides a view of `shape` on t would have, or none when t's layout does not
// allow it (PyTorch's computeStride): `view` is then an error and `reshape` copies.
std::optional<std::vector<int64_t>> view_strides(const Tensor& t, const Shape& shape);

}  // namespace d2s
