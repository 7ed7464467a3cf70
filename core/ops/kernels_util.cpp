// The helpers declared in kernels.h.
#include <algorithm>
#include <cmath>

#include "core/ops/kernels.h"
#include "core/ops/kernels_fast.h"

namespace d2s::kernels {

void fail(const std::string& message) {
  throw Error(message);
}

Tensor tensor_arg(const IValue& v) {
  if (v.is_tensor()) return v.to_tensor();
  if (v.is_bool()) return Tensor::scalar(v.to_bool() ? 1 : 0, DType::Bool);
  if (v.is_int()) {
    Tensor t = Tensor::empty({}, DType::Int64);
    t.data<int64_t>()[0] = v.to_int();  // exact, unlike a trip through double
    return t;
  }
  if (v.is_double()) return Tensor::scalar(v.to_double(), DType::Float32);
  fail("expected a Tensor, got " + v.type_name());
}

Tensor reusable_value(const IValue& v, bool dead, std::optional<DType> dtype) {
  if (!dead || !v.is_tensor()) return Tensor();
  const Tensor& t = v.to_tensor();
  if (!t.sole_owner() || t.requires_grad() || t.impl()->autograd ||
      (dtype && t.dtype() != *dtype)) {
    return Tensor();
  }
  return t;
}

Tensor reusable_arg(const OpContext& ctx, const ValueList& args, size_t i,
                    std::optional<DType> dtype) {
  if (i >= 32 || i >= args.size()) return Tensor();
  return reusable_value(args[i], ctx.dead_args >> i & 1u, dtype);
}

std::optional<DType> dtype_arg(const IValue& v) {
  if (v.is_none()) return std::nullopt;
  DType d;
  if (v.is_int() && dtype_from_scalar_type(v.to_int(), &d)) return d;
  if (v.is_string() && parse_dtype(v.to_string(), &d)) return d;
  fail("d2s supports the dtypes torch.float32, torch.int64 and torch.bool; got " + v.repr());
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  int64_t n = ndim == 0 ? 1 : ndim;
  if (dim < -n || dim >= n) {
    fail("Dimension out of range (expected to be in range of [" + std::to_string(-n) + ", " +
         std::to_string(n - 1) + "], but got " + std::to_string(dim) + ")");
  }
  return dim < 0 ? dim + n : dim;
}

IValue number_of(double v, DType d) {
  switch (d) {
    case DType::Float32:
      return IValue(v);
    case DType::Int64:
      return IValue(static_cast<int64_t>(v));
    case DType::Bool:
      break;
  }
  return IValue(v != 0);
}

IValue item_of(const Tensor& t) {
  if (t.numel() != 1) {
    fail("a Tensor with " + std::to_string(t.numel()) + " elements cannot be converted to Scalar");
  }
  switch (t.dtype()) {
    case DType::Float32:
      return IValue(static_cast<double>(t.data<float>()[0]));
    case DType::Int64:
      return IValue(t.data<int64_t>()[0]);
    case DType::Bool:
      break;
  }
  return IValue(t.data<bool>()[0]);
}

Tensor strided_copy(const Tensor& t, const Shape& shape, const std::vector<int64_t>& strides,
                    int64_t offset) {
  Tensor out = Tensor::empty(shape, t.dtype());
  if (out.numel() == 0) return out;
  const std::vector<int64_t> s[1] = {strides};
  const int64_t inner = shape.empty() ? 1 : shape.back();
  const int64_t step = shape.empty() ? 0 : strides.back();
  dispatch(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = t.data<T>() + offset;
    T* po = out.data<T>();
    for_each_row(shape, s, [&](int64_t row, const int64_t* off) {
      T* o = po + row * inner;
      const T* i = in + off[0];
      if (step == 1) {
        std::copy_n(i, inner, o);
      } else {
        for (int64_t j = 0; j < inner; ++j) o[j] = i[j * step];
      }
    });
  });
  return out;
}

void strided_write(Tensor& dst, const Shape& shape, const std::vector<int64_t>& strides,
                   int64_t offset, const Tensor& src) {
  if (shape_numel(shape) == 0) return;
  const std::vector<int64_t> s[1] = {strides};
  const int64_t inner = shape.empty() ? 1 : shape.back();
  const int64_t step = shape.empty() ? 0 : strides.back();
  dispatch(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* out = dst.data<T>() + offset;
    const T* in = src.data<T>();
    for_each_row(shape, s, [&](int64_t row, const int64_t* off) {
      const T* i = in + row * inner;
      T* o = out + off[0];
      for (int64_t j = 0; j < inner; ++j) o[j * step] = i[j];
    });
  });
}

Tensor broadcast_to(const Tensor& t, const Shape& shape) {
  return strided_copy(t, shape, broadcast_strides(t.shape(), shape), 0);
}

Tensor as_dtype(const Tensor& t, DType d) {
  return t.dtype() == d ? t : t.to(d);
}

}  // namespace d2s::kernels
