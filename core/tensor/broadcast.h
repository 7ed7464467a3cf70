// Broadcasting and type promotion, as PyTorch does them.
//
// Shapes broadcast from the right: sizes must be equal or 1 (a missing dimension
// counts as 1). Type promotion over d2s's three dtypes is simple because each
// category (bool < integer < floating) has exactly one dtype: the result is the
// highest category among the operands, where a Python number counts as its
// category too (True → bool, 3 → int64, 0.5 → float32). This reproduces PyTorch's
// rules for wrapped scalars and 0-d tensors (int64 tensor + 0.5 → float32; float
// tensor + 2 → float32; bool tensor + 1 → int64), which only differ from plain
// "max" when several dtypes share a category.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s {

// The broadcast shape of a and b; throws d2s::Error with PyTorch's message
// ("The size of tensor a (20) must match the size of tensor b (10) at
// non-singleton dimension 1") when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b);

// Strides (in elements) to read a row-major tensor of shape `in` as if it had the
// broadcast shape `out`: 0 along broadcast dimensions. `in` must broadcast to `out`.
std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out);

// Row-major strides of a contiguous tensor of this shape.
std::vector<int64_t> contiguous_strides(const Shape& shape);

DType promote_types(DType a, DType b);
// The dtype an operand contributes to promotion: a tensor's dtype, or the
// category of a Python number. Other values are a d2s::Error.
DType operand_dtype(const IValue& v);
DType result_type(const IValue& a, const IValue& b);

inline bool is_floating(DType d) {
  return d == DType::Float32;
}
// PyTorch's spelling of a dtype in kernel messages: "Float", "Long", "Bool".
const char* dtype_word(DType d);

}  // namespace d2s
