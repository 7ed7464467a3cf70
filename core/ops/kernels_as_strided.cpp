// torch.as_strided(x, size, stride, storage_offset=None) / x.as_strided(...): a view of
// x's storage read at storage_offset + sum(i_d * stride_d), as PyTorch has it. d2s keeps
// a view's elements row-major in a storage of its own (core/autograd/views.h), so the storage a
// view shares is its root's: the kernel reads the root, and core/autograd/views.cpp gives the
// result the strides and offset asked for (writes through it reach the root, and back).
#include <cstring>
#include <string>

#include "core/ops/kernels.h"
#include "core/tensor/view_layout.h"

namespace d2s::kernels {

namespace {

std::string list_str(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

// The storage positions of as_strided's elements, row-major over `size` (PyTorch's
// checks and messages: lengths, negative sizes or strides, a negative offset, a reach
// past the storage's end).
std::vector<int64_t> as_strided_positions(const std::vector<int64_t>& size,
                                          const std::vector<int64_t>& stride, int64_t offset,
                                          int64_t storage_numel) {
  if (size.size() != stride.size()) fail("mismatch in length of strides and shape");
  for (int64_t s : size) {
    if (s < 0) {
      fail("Storage size calculation overflowed with sizes=" + list_str(size) +
           " and strides=" + list_str(stride));
    }
  }
  for (int64_t s : stride) {
    if (s < 0) {
      fail("as_strided: Negative strides are not supported at the moment, got strides: " +
           list_str(stride));
    }
  }
  if (offset < 0) fail("Tensor: invalid storage offset " + std::to_string(offset));
  int64_t numel = 1, last = offset;
  for (size_t d = 0; d < size.size(); ++d) {
    numel *= size[d];
    last += (size[d] - 1) * stride[d];
  }
  if (numel > 0 && last >= storage_numel) {
    fail("setStorage: sizes " + list_str(size) + ", strides " + list_str(stride) +
         ", storage offset " + std::to_string(offset) + ", and itemsize 4 requiring a storage " +
         "size of " + std::to_string(4 * (last + 1)) + " are out of bounds for storage of size " +
         std::to_string(4 * storage_numel));
  }
  std::vector<int64_t> positions(static_cast<size_t>(numel));
  std::vector<int64_t> index(size.size(), 0);
  for (int64_t k = 0; k < numel; ++k) {
    int64_t p = offset;
    for (size_t d = 0; d < size.size(); ++d) p += index[d] * stride[d];
    positions[static_cast<size_t>(k)] = p;
    for (size_t d = size.size(); d-- > 0;) {
      if (++index[d] < size[d]) break;
      index[d] = 0;
    }
  }
  return positions;
}

namespace {

Tensor as_strided(const Tensor& self, const std::vector<int64_t>& size,
                  const std::vector<int64_t>& stride, const IValue& storage_offset) {
  const ViewMeta* meta = self.impl()->view.get();
  const Tensor& storage = meta ? meta->base : self;  // a root is row-major from offset 0
  const int64_t offset =
      storage_offset.is_none() ? (meta ? meta->offset : 0) : storage_offset.to_int();
  const std::vector<int64_t> positions =
      as_strided_positions(size, stride, offset, storage.numel());
  Tensor out = Tensor::empty(Shape(size.begin(), size.end()), self.dtype());
  const size_t item = dtype_size(self.dtype());
  const std::byte* from = storage.data<std::byte>();
  std::byte* to = out.data<std::byte>();
  for (size_t k = 0; k < positions.size(); ++k) {
    std::memcpy(to + k * item, from + static_cast<size_t>(positions[k]) * item, item);
  }
  return out;
}

}  // namespace

void register_as_strided(OpRegistry& r) {
  r.add(
      "aten::as_strided(Tensor(a) self, int[] size, int[] stride, int? storage_offset=None) -> "
      "Tensor(a)",
      [](OpContext&, const ValueList& a) {
        return IValue(as_strided(tensor_arg(a[0]), a[1].to_int_list(), a[2].to_int_list(), a[3]));
      },
      OpTag::NoOnnx);
}

}  // namespace d2s::kernels
