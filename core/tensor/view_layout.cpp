#include "core/tensor/view_layout.h"

#include <algorithm>

namespace d2s {

// PyTorch's at::detail::computeStride: the strides of a view of `newshape` on a tensor
// of `oldshape` and `oldstride`, or none when no such view exists.
std::optional<std::vector<int64_t>> compute_stride(const Shape& oldshape,
                                                   const std::vector<int64_t>& oldstride,
                                                   const Shape& newshape) {
  if (oldshape.empty()) return std::vector<int64_t>(newshape.size(), 1);
  const int64_t numel = shape_numel(oldshape);
  std::vector<int64_t> newstride(newshape.size());
  if (numel == 0 && oldshape == newshape) return oldstride;
  if (numel == 0) {
    for (size_t d = newshape.size(); d-- > 0;) {
      newstride[d] =
          d + 1 == newshape.size() ? 1 : std::max<int64_t>(newshape[d + 1], 1) * newstride[d + 1];
    }
    return newstride;
  }
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[tensor_d];
    if (tensor_d == 0 || (oldshape[tensor_d - 1] != 1 &&
                          oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

std::vector<int64_t> row_major_strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * std::max<int64_t>(shape[d], 1);
  return s;
}

std::vector<int64_t> strides_of(const Tensor& t) {
  if (t.impl()->view) return t.impl()->view->strides;
  return row_major_strides(t.shape());
}

bool is_contiguous(const Tensor& t) {
  if (!t.impl()->view || t.numel() == 0) return true;
  const std::vector<int64_t>& s = t.impl()->view->strides;
  int64_t expected = 1;
  for (size_t d = s.size(); d-- > 0;) {
    if (t.shape()[d] == 1) continue;
    if (s[d] != expected) return false;
    expected *= t.shape()[d];
  }
  return true;
}

std::optional<std::vector<int64_t>> view_strides(const Tensor& t, const Shape& shape) {
  if (!t.impl()->view) return row_major_strides(shape);
  return compute_stride(t.shape(), t.impl()->view->strides, shape);
}

}  // namespace d2s
