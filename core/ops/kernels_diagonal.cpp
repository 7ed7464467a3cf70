// torch.diagonal / x.diagonal(offset, dim1, dim2): a view of the elements i, i + offset
// of dims dim1 and dim2 (both removed; the diagonal is the last dim), as PyTorch has it
// (core/autograd/views.cpp gives it PyTorch's strides, so writes through it reach the base);
// diagonal_scatter, its functional write (and its derivative's form); diag_embed, the
// last dim of self laid on the diagonal of two new dims, zeros elsewhere.
#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

struct DiagonalRegion {
  Shape shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
};

// Where diagonal(offset, dim1, dim2) of a row-major tensor of `shape` reads.
DiagonalRegion diagonal_region(const Shape& shape, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t n = static_cast<int64_t>(shape.size());
  const int64_t d1 = wrap_dim(dim1, n), d2 = wrap_dim(dim2, n);
  if (d1 == d2) {
    fail("diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " +
         std::to_string(dim2));
  }
  const std::vector<int64_t> s = contiguous_strides(shape);
  DiagonalRegion r;
  int64_t size = offset >= 0 ? std::min(shape[d1], shape[d2] - offset)
                             : std::min(shape[d1] + offset, shape[d2]);
  size = std::max<int64_t>(size, 0);
  if (size > 0) r.offset = offset >= 0 ? offset * s[d2] : -offset * s[d1];
  for (int64_t d = 0; d < n; ++d) {
    if (d == d1 || d == d2) continue;
    r.shape.push_back(shape[d]);
    r.strides.push_back(s[d]);
  }
  r.shape.push_back(size);
  r.strides.push_back(s[d1] + s[d2]);
  return r;
}

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const DiagonalRegion r = diagonal_region(self.shape(), offset, dim1, dim2);
  return strided_copy(self, r.shape, r.strides, r.offset);
}

Tensor diagonal_scatter(const Tensor& self, const Tensor& src, int64_t offset, int64_t dim1,
                        int64_t dim2) {
  const DiagonalRegion r = diagonal_region(self.shape(), offset, dim1, dim2);
  if (src.shape() != r.shape) {
    fail(
        "diagonal_scatter(): expected src to have a size equal to the slice of self. src size "
        "= " +
        shape_str(src.shape()) + ", slice size = " + shape_str(r.shape));
  }
  Tensor out = self.clone();
  strided_write(out, r.shape, r.strides, r.offset, as_dtype(src, self.dtype()));
  return out;
}

Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  if (self.dim() == 0) fail("diag_embed(): expected a tensor with at least 1 dimension");
  const int64_t n = self.dim() + 1;
  const int64_t d1 = wrap_dim(dim1, n), d2 = wrap_dim(dim2, n);
  if (d1 == d2) {
    fail("diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " +
         std::to_string(dim2));
  }
  const int64_t side = self.shape().back() + std::abs(offset);
  Shape out_shape;
  for (int64_t d = 0, k = 0; d < n; ++d) {
    out_shape.push_back(d == d1 || d == d2 ? side : self.shape()[k++]);
  }
  Tensor out = Tensor::zeros(out_shape, self.dtype());
  const DiagonalRegion r = diagonal_region(out_shape, offset, d1, d2);
  strided_write(out, r.shape, r.strides, r.offset, self);
  return out;
}

}  // namespace

void register_diagonal(OpRegistry& r) {
  using A = const ValueList&;
  auto t = [](const IValue& v) { return tensor_arg(v); };
  r.add(
      "aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)",
      [t](OpContext&, A a) {
        return IValue(diagonal(t(a[0]), a[1].to_int(), a[2].to_int(), a[3].to_int()));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> "
      "Tensor",
      [t](OpContext&, A a) {
        return IValue(
            diagonal_scatter(t(a[0]), t(a[1]), a[2].to_int(), a[3].to_int(), a[4].to_int()));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
      [t](OpContext&, A a) {
        return IValue(diag_embed(t(a[0]), a[1].to_int(), a[2].to_int(), a[3].to_int()));
      },
      OpTag::NoOnnx);
}

}  // namespace d2s::kernels
