#include "core/tensor/broadcast.h"

#include <algorithm>
#include <string>

#include "core/base/error.h"

namespace d2s {

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  if (a == b) return a;
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    // Dimension i of the result, aligned from the right in both operands.
    const size_t off = n - 1 - i;
    const int64_t sa = off < a.size() ? a[a.size() - 1 - off] : 1;
    const int64_t sb = off < b.size() ? b[b.size() - 1 - off] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      throw Error("The size of tensor a (" + std::to_string(sa) +
                  ") must match the size of tensor b (" + std::to_string(sb) +
                  ") at non-singleton dimension " + std::to_string(i));
    }
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

std::vector<int64_t> contiguous_strides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  std::vector<int64_t> own = contiguous_strides(in);
  const size_t lead = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) {
    strides[lead + i] = (in[i] == 1 && out[lead + i] != 1) ? 0 : own[i];
  }
  return strides;
}

DType promote_types(DType a, DType b) {
  auto rank = [](DType d) { return d == DType::Bool ? 0 : d == DType::Int64 ? 1 : 2; };
  return rank(a) >= rank(b) ? a : b;
}

DType operand_dtype(const IValue& v) {
  if (v.is_tensor()) return v.to_tensor().dtype();
  if (v.is_bool()) return DType::Bool;
  if (v.is_int()) return DType::Int64;
  if (v.is_double()) return DType::Float32;
  throw Error("expected a Tensor or a number, got " + v.type_name());
}

DType result_type(const IValue& a, const IValue& b) {
  return promote_types(operand_dtype(a), operand_dtype(b));
}

const char* dtype_word(DType d) {
  switch (d) {
    case DType::Bool:
      return "Bool";
    case DType::Int64:
      return "Long";
    case DType::Float32:
      return "Float";
  }
  return "?";
}

}  // namespace d2s
