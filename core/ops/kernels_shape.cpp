// Shape ops. reshape/view/flatten/squeeze/unsqueeze/detach share storage (the
// row-major layout is unchanged); select, slice, expand, cat, stack, chunk and
// split copy, since d2s tensors hold their elements row-major; those that are views in
// PyTorch are kept in step with their base by core/autograd/views.h, which also gives PyTorch's
// strides (reshape copies and view fails where PyTorch's would). Also the size
// queries and the dtype conversions (to, float(), long(), bool(), type_as).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/ops/kernels.h"
#include "core/tensor/view_layout.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

IValue tensor_list(const std::vector<Tensor>& ts) {
  ValueList items(ts.begin(), ts.end());
  return IValue::list(std::move(items));
}

// The shape for reshape/view: one -1 is inferred from the element count.
Shape infer_shape(const std::vector<int64_t>& sizes, int64_t numel) {
  Shape shape(sizes.begin(), sizes.end());
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) fail("only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
    } else if (shape[i] < 0) {
      fail("invalid shape dimension " + std::to_string(shape[i]));
    } else {
      known = shape_numel({known, shape[i]});
    }
  }
  if (infer >= 0 && known != 0 && numel % known == 0) shape[infer] = numel / known;
  if ((infer >= 0 && (known == 0 || numel % known != 0)) || shape_numel(shape) != numel) {
    fail("shape '" + shape_str(Shape(sizes.begin(), sizes.end())) +
         "' is invalid for input of size " + std::to_string(numel));
  }
  return shape;
}

Tensor flatten(const Tensor& t, int64_t start, int64_t end) {
  if (t.dim() == 0) return t.view_as_shape({1});
  start = wrap_dim(start, t.dim());
  end = wrap_dim(end, t.dim());
  if (start > end) fail("flatten() has invalid args: start_dim cannot come after end_dim");
  Shape shape(t.shape().begin(), t.shape().begin() + start);
  shape.push_back(shape_numel(Shape(t.shape().begin() + start, t.shape().begin() + end + 1)));
  shape.insert(shape.end(), t.shape().begin() + end + 1, t.shape().end());
  return t.view_as_shape(shape);
}

Tensor squeeze(const Tensor& t, const IValue& dim) {
  Shape shape;
  if (dim.is_none()) {
    for (int64_t s : t.shape()) {
      if (s != 1) shape.push_back(s);
    }
    return t.view_as_shape(shape);
  }
  const int64_t d = wrap_dim(dim.to_int(), t.dim());
  shape = t.shape();
  if (t.dim() > 0 && shape[d] == 1) shape.erase(shape.begin() + d);
  return t.view_as_shape(shape);
}

Tensor unsqueeze(const Tensor& t, int64_t dim) {
  const int64_t d = wrap_dim(dim, t.dim() + 1);
  Shape shape = t.shape();
  shape.insert(shape.begin() + d, 1);
  return t.view_as_shape(shape);
}

// reshape: a view when the layout allows one (views.h), else a copy, as PyTorch's.
Tensor reshape_or_copy(const Tensor& x, const Shape& shape) {
  return view_strides(x, shape) ? x.view_as_shape(shape) : x.clone().view_as_shape(shape);
}

Tensor view_or_fail(const Tensor& x, const Shape& shape) {
  if (!view_strides(x, shape)) {
    fail(
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  }
  return x.view_as_shape(shape);
}

// Copies whole rows of bytes: cat and stack need no per-element work.
Tensor cat(const std::vector<Tensor>& in, int64_t dim_arg) {
  if (in.empty()) fail("torch.cat(): expected a non-empty list of Tensors");
  std::vector<Tensor> ts;
  DType dtype = in[0].dtype();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].dim() == 0) {
      fail("zero-dimensional tensor (at position " + std::to_string(i) +
           ") cannot be concatenated");
    }
    dtype = promote_types(dtype, in[i].dtype());
    // PyTorch's legacy rule: 1-D empty tensors are skipped whatever their size.
    if (!(in[i].dim() == 1 && in[i].numel() == 0)) ts.push_back(in[i]);
  }
  if (ts.empty()) return Tensor::empty({0}, dtype);
  const int64_t nd = ts[0].dim();
  const int64_t dim = wrap_dim(dim_arg, nd);
  Shape shape = ts[0].shape();
  shape[dim] = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].dim() != nd) {
      fail("Tensors must have same number of dimensions: got " + std::to_string(nd) + " and " +
           std::to_string(ts[i].dim()));
    }
    for (int64_t d = 0; d < nd; ++d) {
      if (d != dim && ts[i].shape()[d] != ts[0].shape()[d]) {
        fail("Sizes of tensors must match except in dimension " + std::to_string(dim) +
             ". Expected size " + std::to_string(ts[0].shape()[d]) + " but got size " +
             std::to_string(ts[i].shape()[d]) + " for tensor number " + std::to_string(i) +
             " in the list.");
      }
    }
    shape[dim] += ts[i].shape()[dim];
  }
  Tensor out = Tensor::empty(shape, dtype);
  const int64_t outer = shape_numel(Shape(shape.begin(), shape.begin() + dim));
  const int64_t inner = shape_numel(Shape(shape.begin() + dim + 1, shape.end()));
  const size_t esize = dtype_size(dtype);
  std::byte* po = out.data<std::byte>();
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& t0 : ts) {
      const Tensor t = as_dtype(t0, dtype);
      const size_t chunk = static_cast<size_t>(t.shape()[dim] * inner) * esize;
      std::memcpy(po, t.data<std::byte>() + o * chunk, chunk);
      po += chunk;
    }
  }
  return out;
}

Tensor stack(const std::vector<Tensor>& ts, int64_t dim_arg) {
  if (ts.empty()) fail("stack expects a non-empty TensorList");
  for (size_t i = 1; i < ts.size(); ++i) {
    if (ts[i].shape() != ts[0].shape()) {
      fail("stack expects each tensor to be equal size, but got " + shape_str(ts[0].shape()) +
           " at entry 0 and " + shape_str(ts[i].shape()) + " at entry " + std::to_string(i));
    }
  }
  const int64_t dim = wrap_dim(dim_arg, ts[0].dim() + 1);
  std::vector<Tensor> parts;
  for (const Tensor& t : ts) parts.push_back(unsqueeze(t, dim));
  return cat(parts, dim);
}

Tensor expand(const Tensor& t, const std::vector<int64_t>& sizes) {
  const int64_t nd = t.dim(), n = static_cast<int64_t>(sizes.size());
  if (n < nd) {
    fail(std::string("expand(torch.") + dtype_word(t.dtype()) + "Tensor{" + shape_str(t.shape()) +
         "}, size=" + shape_str(Shape(sizes.begin(), sizes.end())) +
         "): the number of sizes provided (" + std::to_string(n) +
         ") must be greater or equal to the number of dimensions in the tensor (" +
         std::to_string(nd) + ")");
  }
  Shape shape(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = i - (n - nd);  // the matching dimension of t, if any
    if (j < 0) {
      if (sizes[i] < 0) {
        fail("The expanded size of the tensor (" + std::to_string(sizes[i]) +
             ") isn't allowed in a leading, non-existing dimension " + std::to_string(i));
      }
      shape[i] = sizes[i];
      continue;
    }
    const int64_t have = t.shape()[j];
    shape[i] = sizes[i] == -1 ? have : sizes[i];
    if (have != 1 && shape[i] != have) {
      fail("The expanded size of the tensor (" + std::to_string(shape[i]) +
           ") must match the existing size (" + std::to_string(have) +
           ") at non-singleton dimension " + std::to_string(i) +
           ".  Target sizes: " + shape_str(Shape(sizes.begin(), sizes.end())) +
           ".  Tensor sizes: " + shape_str(t.shape()));
    }
  }
  return shape == t.shape() ? t.view_as_shape(shape) : broadcast_to(t, shape);
}

// The elements of a tensor that select/slice take, as strided_copy reads them
// (and strided_write writes them back, for the *_scatter ops).
struct Region {
  Shape shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
};

Region select_region(const Tensor& t, int64_t dim, int64_t index) {
  if (t.dim() == 0) fail("select() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(dim, t.dim());
  const int64_t size = t.shape()[d];
  if (index < -size || index >= size) {
    fail("select(): index " + std::to_string(index) + " out of range for tensor of size " +
         shape_str(t.shape()) + " at dimension " + std::to_string(d));
  }
  if (index < 0) index += size;
  Region r{t.shape(), contiguous_strides(t.shape()), 0};
  r.offset = index * r.strides[d];
  r.shape.erase(r.shape.begin() + d);
  r.strides.erase(r.strides.begin() + d);
  return r;
}

// Python slice semantics: None means the end, negatives count from the end,
// out-of-range bounds clamp, an empty range gives size 0.
Region slice_region(const Tensor& t, int64_t dim, const IValue& start_v, const IValue& end_v,
                    int64_t step) {
  if (t.dim() == 0) fail("slice() cannot be applied to a 0-dim tensor.");
  if (step <= 0) fail("slice step must be positive");
  const int64_t d = wrap_dim(dim, t.dim());
  const int64_t size = t.shape()[d];
  auto clamp_index = [size](int64_t i) {
    if (i < 0) i += size;
    return std::clamp<int64_t>(i, 0, size);
  };
  const int64_t start = start_v.is_none() ? 0 : clamp_index(start_v.to_int());
  const int64_t end = end_v.is_none() ? size : clamp_index(end_v.to_int());
  const int64_t count = end > start ? 1 + (end - start - 1) / step : 0;  // no overflow
  Region r{t.shape(), contiguous_strides(t.shape()), 0};
  r.offset = count ? start * r.strides[d] : 0;
  r.strides[d] *= step;
  r.shape[d] = count;
  return r;
}

Tensor select(const Tensor& t, int64_t dim, int64_t index) {
  const Region r = select_region(t, dim, index);
  return strided_copy(t, r.shape, r.strides, r.offset);
}

Tensor slice(const Tensor& t, int64_t dim, const IValue& start, const IValue& end, int64_t step) {
  const Region r = slice_region(t, dim, start, end, step);
  return strided_copy(t, r.shape, r.strides, r.offset);
}

Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  if (t.dim() == 0) fail("narrow() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(dim, t.dim());
  const int64_t size = t.shape()[d];
  if (start < -size || start > size) {
    fail("start out of range (expected to be in range of [" + std::to_string(-size) + ", " +
         std::to_string(size) + "], but got " + std::to_string(start) + ")");
  }
  if (start < 0) start += size;
  if (length < 0 || start > size - length) {
    fail("start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
         ") exceeds dimension size (" + std::to_string(size) + ").");
  }
  return slice(t, d, IValue(start), IValue(start + length), 1);
}

// select_scatter / slice_scatter: a copy of self with src written into the
// region (x[i] = v, functionally). src converts to self's dtype, as assignment does.
Tensor scatter(const Tensor& self, const Region& r, const Tensor& src, const char* name) {
  if (src.shape() != r.shape) {
    fail(std::string(name) +
         "(): expected src to have a size equal to the slice of self. src size = " +
         shape_str(src.shape()) + ", slice size = " + shape_str(r.shape));
  }
  Tensor out = self.clone();
  strided_write(out, r.shape, r.strides, r.offset, as_dtype(src, self.dtype()));
  return out;
}

// self.copy_(src): src broadcast to self's shape, converted, written in place.
Tensor copy_into(const IValue& selfv, const Tensor& src) {
  if (!selfv.is_tensor()) fail("in-place operations need a Tensor, not " + selfv.type_name());
  Tensor self = selfv.to_tensor();
  if (broadcast_shapes(src.shape(), self.shape()) != self.shape()) {
    fail("output with shape " + shape_str(self.shape()) + " doesn't match the broadcast shape " +
         shape_str(broadcast_shapes(src.shape(), self.shape())));
  }
  const Tensor b = broadcast_to(as_dtype(src, self.dtype()), self.shape());
  std::memcpy(self.data<std::byte>(), b.data<std::byte>(), self.numel() * dtype_size(self.dtype()));
  return self;
}

std::vector<Tensor> split_sizes(const Tensor& t, const std::vector<int64_t>& sizes, int64_t dim) {
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t s : sizes) {
    parts.push_back(slice(t, dim, IValue(start), IValue(start + s), 1));
    start += s;
  }
  return parts;
}

std::vector<Tensor> split(const Tensor& t, int64_t split_size, int64_t dim) {
  if (t.dim() == 0) fail("split expects at least a 1-dimensional tensor");
  if (split_size < 0) {
    fail("split expects split_size be non-negative, but got split_size=" +
         std::to_string(split_size));
  }
  const int64_t size = t.shape()[wrap_dim(dim, t.dim())];
  if (split_size == 0 && size != 0) {
    fail("split_size can only be 0 if dimension size is 0, but got dimension size of " +
         std::to_string(size));
  }
  std::vector<int64_t> sizes;
  for (int64_t s = 0; s < size; s += sizes.back()) sizes.push_back(std::min(split_size, size - s));
  if (sizes.empty()) sizes.push_back(0);
  return split_sizes(t, sizes, dim);
}

Tensor convert(const Tensor& t, DType d, bool copy) {
  if (t.dtype() == d && !copy) return t;  // PyTorch returns self unchanged
  return t.to(d);
}

void check_device(const std::string& device) {
  if (device != "cpu") {
    fail("d2s runs on the CPU only; got device '" + device + "'");
  }
}

Tensor repeat(const Tensor& t, const std::vector<int64_t>& repeats) {
  const int64_t n = static_cast<int64_t>(repeats.size());
  if (n < t.dim()) {
    fail(
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
        "tensor");
  }
  // View as [1, s0, 1, s1, ...], broadcast to [r0, s0, r1, s1, ...], merge pairs.
  Shape padded(n - t.dim(), 1);
  padded.insert(padded.end(), t.shape().begin(), t.shape().end());
  Shape pairs, target, result;
  for (int64_t i = 0; i < n; ++i) {
    if (repeats[i] < 0)
      fail("Trying to create tensor with negative dimension " + std::to_string(repeats[i]));
    pairs.insert(pairs.end(), {1, padded[i]});
    target.insert(target.end(), {repeats[i], padded[i]});
    result.push_back(shape_numel({repeats[i], padded[i]}));  // saturates, never overflows
  }
  return broadcast_to(t.view_as_shape(pairs), target).view_as_shape(result);
}

// tril/triu: zero the elements above (below) diagonal `k` of the last two dims.
Tensor triangle(const Tensor& t, int64_t k, bool lower) {
  if (t.dim() < 2)
    fail(std::string(lower ? "tril" : "triu") + ": input tensor must have at least 2 dimensions");
  Tensor out = t.clone();
  const int64_t rows = t.shape()[t.dim() - 2], cols = t.shape()[t.dim() - 1];
  const int64_t mats = (rows * cols != 0) ? t.numel() / (rows * cols) : 0;
  const size_t esize = dtype_size(t.dtype());
  std::byte* p = out.data<std::byte>();
  for (int64_t m = 0; m < mats; ++m) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const bool keep = lower ? j - i <= k : j - i >= k;
        if (!keep) std::memset(p + ((m * rows + i) * cols + j) * esize, 0, esize);
      }
    }
  }
  return out;
}

Tensor index_select(const Tensor& t, int64_t dim, const Tensor& index) {
  if (index.dtype() != DType::Int64 || index.dim() > 1) {
    fail("index_select(): Expected a 1-D tensor of int64 indices");
  }
  const int64_t d = wrap_dim(dim, t.dim());
  std::vector<Tensor> rows;
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t k = index.data<int64_t>()[i];
    const int64_t size = t.dim() ? t.shape()[d] : 1;
    if (k < 0 || k >= size) fail("index out of range in self");
    rows.push_back(t.dim() ? unsqueeze(select(t, d, k), d) : t.view_as_shape({1}));
  }
  if (rows.empty()) {
    Shape shape = t.shape();
    if (!shape.empty()) shape[d] = 0;
    return Tensor::empty(shape, t.dtype());
  }
  Tensor out = cat(rows, t.dim() ? d : 0);
  return t.dim() ? out : out.view_as_shape(index.shape());
}

std::vector<Tensor> tensors_arg(const IValue& v) {
  std::vector<Tensor> out;
  for (const IValue& item : v.items()) out.push_back(item.to_tensor());
  return out;
}

}  // namespace

void register_shape(OpRegistry& r) {
  using A = const ValueList&;
  auto t = [](const IValue& v) { return tensor_arg(v); };
  r.add("aten::reshape(Tensor(a) self, int[] shape) -> Tensor(a)", [t](OpContext&, A a) {
    Tensor x = t(a[0]);
    return tv(reshape_or_copy(x, infer_shape(a[1].to_int_list(), x.numel())));
  });
  r.add("aten::view(Tensor(a) self, int[] size) -> Tensor(a)", [t](OpContext&, A a) {
    Tensor x = t(a[0]);
    return tv(view_or_fail(x, infer_shape(a[1].to_int_list(), x.numel())));
  });
  r.add("aten::view_as(Tensor(a) self, Tensor other) -> Tensor(a)", [t](OpContext&, A a) {
    Tensor x = t(a[0]);
    return tv(view_or_fail(x, infer_shape(t(a[1]).shape(), x.numel())));
  });
  r.add("aten::reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", [t](OpContext&, A a) {
    Tensor x = t(a[0]);
    return tv(reshape_or_copy(x, infer_shape(t(a[1]).shape(), x.numel())));
  });
  r.add("aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
        [t](OpContext&, A a) {
          Tensor x = t(a[0]);
          Tensor f = flatten(x, a[1].to_int(), a[2].to_int());
          return tv(reshape_or_copy(x, f.shape()));
        });
  r.add(
      "aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)",
      [t](OpContext&, A a) {
        return tv(narrow(t(a[0]), a[1].to_int(), a[2].to_int(), a[3].to_int()));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::is_contiguous(Tensor self) -> bool",
      [t](OpContext&, A a) { return IValue(is_contiguous(t(a[0]))); }, OpTag::NoOnnx);
  r.add(
      "aten::stride(Tensor self) -> int[]",
      [t](OpContext&, A a) { return IValue::int_list(strides_of(t(a[0]))); }, OpTag::NoOnnx);
  r.add(
      "aten::stride.int(Tensor self, int dim) -> int",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        if (x.dim() == 0) fail("stride(): a 0-dim tensor has no dimensions");
        return IValue(strides_of(x)[wrap_dim(a[1].to_int(), x.dim())]);
      },
      OpTag::NoOnnx);
  r.add("aten::squeeze(Tensor(a) self) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(squeeze(t(a[0]), IValue())); });
  r.add("aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(squeeze(t(a[0]), a[1])); });
  r.add("aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(unsqueeze(t(a[0]), a[1].to_int())); });
  r.add("aten::cat(Tensor[] tensors, int dim=0) -> Tensor",
        [](OpContext&, A a) { return tv(cat(tensors_arg(a[0]), a[1].to_int())); });
  r.add("aten::stack(Tensor[] tensors, int dim=0) -> Tensor",
        [](OpContext&, A a) { return tv(stack(tensors_arg(a[0]), a[1].to_int())); });

  r.add("aten::size(Tensor self) -> int[]",
        [t](OpContext&, A a) { return IValue::int_list(t(a[0]).shape()); });
  r.add("aten::size.int(Tensor self, int dim) -> int",
        [t](OpContext&, A a) { return IValue(t(a[0]).size(a[1].to_int())); });
  r.add("aten::dim(Tensor self) -> int", [t](OpContext&, A a) { return IValue(t(a[0]).dim()); });
  r.add("aten::numel(Tensor self) -> int",
        [t](OpContext&, A a) { return IValue(t(a[0]).numel()); });
  r.add(
      "prim::dtype(Tensor a) -> int",
      [t](OpContext&, A a) { return IValue(dtype_scalar_type(t(a[0]).dtype())); }, OpTag::NoOnnx);
  r.add(
      "aten::is_floating_point(Tensor self) -> bool",
      [t](OpContext&, A a) { return IValue(t(a[0]).dtype() == DType::Float32); }, OpTag::NoOnnx);
  // Itself when PyTorch's layout of it is row-major, else a fresh copy (a transposed
  // view's contiguous() is no longer a view of the base).
  r.add("aten::contiguous(Tensor self, *, int memory_format=0) -> Tensor", [t](OpContext&, A a) {
    Tensor x = t(a[0]);
    return tv(is_contiguous(x) ? x : x.clone());
  });
  r.add("aten::clone(Tensor self, *, int? memory_format=None) -> Tensor",
        [t](OpContext&, A a) { return tv(t(a[0]).clone()); });
  r.add(
      "aten::detach(Tensor self) -> Tensor",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        return tv(x.view_as_shape(x.shape()));  // shares storage, no requires_grad
      },
      OpTag::NoDerivative);
  r.add("aten::expand(Tensor(a) self, int[] size, *, bool implicit=False) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(expand(t(a[0]), a[1].to_int_list())); });
  r.add("aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(expand(t(a[0]), t(a[1]).shape())); });
  r.add("aten::repeat(Tensor self, int[] repeats) -> Tensor",
        [t](OpContext&, A a) { return tv(repeat(t(a[0]), a[1].to_int_list())); });
  r.add("aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(select(t(a[0]), a[1].to_int(), a[2].to_int())); });
  r.add(
      "aten::slice.Tensor(Tensor(a) self, int dim=0, int? start=None, int? end=None, int step=1) "
      "-> Tensor(a)",
      [t](OpContext&, A a) {
        return tv(slice(t(a[0]), a[1].to_int(), a[2], a[3], a[4].to_int()));
      });
  r.add("aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor",
        [t](OpContext&, A a) {
          Tensor x = t(a[0]);
          return tv(scatter(x, select_region(x, a[2].to_int(), a[3].to_int()), t(a[1]),
                            "select_scatter"));
        });
  r.add(
      "aten::slice_scatter(Tensor self, Tensor src, int dim=0, int? start=None, int? end=None, "
      "int step=1) -> Tensor",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        return tv(scatter(x, slice_region(x, a[2].to_int(), a[3], a[4], a[5].to_int()), t(a[1]),
                          "slice_scatter"));
      });
  r.add("aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
        [t](OpContext&, A a) { return tv(copy_into(a[0], t(a[1]))); });
  r.add(
      "aten::numpy_T(Tensor(a) self) -> Tensor(a)",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        std::vector<int64_t> dims;
        for (int64_t d = x.dim(); d-- > 0;) dims.push_back(d);
        return tv(permute(x, dims));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        const int64_t chunks = a[1].to_int();
        if (chunks <= 0) {
          fail("chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
        }
        if (x.dim() == 0) fail("chunk expects at least a 1-dimensional tensor");
        const int64_t size = x.shape()[wrap_dim(a[2].to_int(), x.dim())];
        return tensor_list(split(x, size / chunks + (size % chunks != 0), a[2].to_int()));
      },
      OpTag::NoShapeRule | OpTag::NoOnnx);
  r.add(
      "aten::split.Tensor(Tensor(a) self, int split_size, int dim=0) -> Tensor(a)[]",
      [t](OpContext&, A a) { return tensor_list(split(t(a[0]), a[1].to_int(), a[2].to_int())); },
      OpTag::NoShapeRule | OpTag::NoOnnx);
  r.add(
      "aten::split.sizes(Tensor(a) self, int[] split_size, int dim=0) -> Tensor(a)[]",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        std::vector<int64_t> sizes = a[1].to_int_list();
        if (x.dim() == 0) fail("split expects at least a 1-dimensional tensor");
        const int64_t d = wrap_dim(a[2].to_int(), x.dim());
        int64_t total = 0;
        for (int64_t s : sizes) {
          if (s < 0) {
            fail(
                "split_with_sizes expects split_sizes have only non-negative entries, but got "
                "split_sizes=" +
                shape_str(sizes));
          }
          total = s > INT64_MAX - total ? INT64_MAX : total + s;  // saturates
        }
        if (total != x.shape()[d]) {
          fail("split_with_sizes expects split_sizes to sum exactly to " +
               std::to_string(x.shape()[d]) + " (input tensor's size at dimension " +
               std::to_string(d) + "), but got split_sizes=" + shape_str(sizes));
        }
        return tensor_list(split_sizes(x, sizes, d));
      },
      OpTag::NoShapeRule | OpTag::NoOnnx);
  r.add(
      "aten::unbind.int(Tensor(a) self, int dim=0) -> Tensor(a)[]",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        if (x.dim() == 0) fail("Dimension specified as 0 but tensor has no dimensions");
        const int64_t d = wrap_dim(a[1].to_int(), x.dim());
        std::vector<Tensor> parts;
        for (int64_t i = 0; i < x.shape()[d]; ++i) parts.push_back(select(x, d, i));
        return tensor_list(parts);
      },
      OpTag::NoShapeRule | OpTag::NoOnnx);
  r.add("aten::index_select(Tensor self, int dim, Tensor index) -> Tensor",
        [t](OpContext&, A a) { return tv(index_select(t(a[0]), a[1].to_int(), t(a[2]))); });
  r.add("aten::tril(Tensor self, int diagonal=0) -> Tensor",
        [t](OpContext&, A a) { return tv(triangle(t(a[0]), a[1].to_int(), true)); });
  r.add("aten::triu(Tensor self, int diagonal=0) -> Tensor",
        [t](OpContext&, A a) { return tv(triangle(t(a[0]), a[1].to_int(), false)); });

  r.add(
      "aten::to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) "
      "-> Tensor",
      [t](OpContext&, A a) { return tv(convert(t(a[0]), *dtype_arg(a[1]), a[3].to_bool())); });
  r.add(
      "aten::to.device(Tensor self, str device, ScalarType? dtype=None, bool non_blocking=False, "
      "bool copy=False) -> Tensor",
      [t](OpContext&, A a) {
        check_device(a[1].to_string());
        Tensor x = t(a[0]);
        return tv(convert(x, dtype_arg(a[2]).value_or(x.dtype()), a[4].to_bool()));
      });
  r.add(
      "aten::to.other(Tensor self, Tensor other, bool non_blocking=False, bool copy=False) -> "
      "Tensor",
      [t](OpContext&, A a) { return tv(convert(t(a[0]), t(a[1]).dtype(), a[3].to_bool())); });
  r.add("aten::type_as(Tensor self, Tensor other) -> Tensor",
        [t](OpContext&, A a) { return tv(convert(t(a[0]), t(a[1]).dtype(), false)); });
  r.add("aten::cpu(Tensor self) -> Tensor", [t](OpContext&, A a) { return tv(t(a[0])); });
}

}  // namespace d2s::kernels
