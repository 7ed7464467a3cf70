// Internal to core/: advanced indexing shared by the index kernels
// (kernels_index.cpp) and their derivatives (derivatives_index.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s::kernels {

// Where x[indices] reads: the result's shape, and for each result element (row-major)
// the offset of the element of x it is. Throws PyTorch's IndexErrors (an index out of
// range, a mask of the wrong shape, indices that do not broadcast).
struct IndexPlan {
  Shape shape;
  std::vector<int64_t> offsets;
};
IndexPlan plan_index(const Shape& self, const ValueList& indices);

// The coordinates of a bool tensor's true elements, one long tensor per dimension
// (torch.nonzero(mask, as_tuple=True)).
std::vector<Tensor> nonzero_coordinates(const Tensor& mask);

// aten::index: self[indices].
Tensor index(const Tensor& self, const ValueList& indices);
// aten::index_put_: self[indices] = values (broadcast), or += with accumulate (each
// duplicate index adds, in order). Writes self's storage.
void index_put_into(Tensor& self, const ValueList& indices, const IValue& values, bool accumulate);

}  // namespace d2s::kernels
