// Ops along one dimension: sort, argsort, topk, cumsum, cumprod, flip, roll, and the
// gather/scatter family (gather, scatter with a src tensor or a value, scatter_add, and
// their in-place forms). Each works on lines: for a contiguous tensor and a dim d,
// element (o, j, i) of shape (outer, size, inner) sits at (o * size + j) * inner + i.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

struct Lines {
  int64_t outer = 1, size = 1, inner = 1;
  int64_t at(int64_t o, int64_t j, int64_t i) const { return (o * size + j) * inner + i; }
};

Lines lines_of(const Shape& shape, int64_t dim) {
  Lines l;
  if (shape.empty()) return l;
  for (int64_t d = 0; d < dim; ++d) l.outer *= shape[d];
  l.size = shape[dim];
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) l.inner *= shape[d];
  return l;
}

// The permutation that sorts each line (stable: equal values keep their order, as
// PyTorch's stable sort), descending or not; NaN sorts as the largest value.
template <typename T>
void sort_line(const T* v, int64_t stride, int64_t n, bool descending, std::vector<int64_t>& p) {
  p.resize(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  auto key = [&](int64_t j) { return v[j * stride]; };
  auto less = [&](int64_t a, int64_t b) {
    const T x = key(a), y = key(b);
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(y)) return !std::isnan(x);
      if (std::isnan(x)) return false;
    }
    return x < y;
  };
  if (descending) {
    std::stable_sort(p.begin(), p.end(), [&](int64_t a, int64_t b) { return less(b, a); });
  } else {
    std::stable_sort(p.begin(), p.end(), less);
  }
}

// Values and indices of the first `k` of each sorted line (k = size: a full sort).
IValue sorted(const Tensor& self, int64_t dim, int64_t k, bool descending) {
  const int64_t d = wrap_dim(dim, self.dim());
  Shape shape = self.shape();
  if (!shape.empty()) shape[d] = k;
  const Lines l = lines_of(self.shape(), d);
  Tensor values = Tensor::empty(shape, self.dtype());
  Tensor indices = Tensor::empty(shape, DType::Int64);
  const Lines out = lines_of(shape, d);
  dispatch(self.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = self.data<T>();
    T* pv = values.data<T>();
    int64_t* pi = indices.data<int64_t>();
    std::vector<int64_t> perm;
    for (int64_t o = 0; o < l.outer; ++o) {
      for (int64_t i = 0; i < l.inner; ++i) {
        const T* line = src + l.at(o, 0, i);
        sort_line(line, l.inner, l.size, descending, perm);
        for (int64_t j = 0; j < k; ++j) {
          pv[out.at(o, j, i)] = line[perm[j] * l.inner];
          pi[out.at(o, j, i)] = perm[j];
        }
      }
    }
  });
  return IValue::tuple({tv(values), tv(indices)});
}

IValue topk(const Tensor& self, int64_t k, int64_t dim, bool largest) {
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t size = self.dim() ? self.shape()[d] : 1;
  if (k < 0 || k > size) fail("selected index k out of range");
  return sorted(self, dim, k, largest);
}

// cumsum / cumprod: ints and bools accumulate as int64, floats in double (PyTorch's CPU
// accumulation type), each partial result rounded to the output's type.
Tensor scan(const Tensor& self, int64_t dim, const IValue& dtype, bool product) {
  const int64_t d = wrap_dim(dim, self.dim());
  DType out_dtype = self.dtype() == DType::Float32 ? DType::Float32 : DType::Int64;
  if (auto given = dtype_arg(dtype)) out_dtype = *given;
  const Tensor x = as_dtype(self, out_dtype);
  Tensor out = Tensor::empty(self.shape(), out_dtype);
  const Lines l = lines_of(self.shape(), d);
  dispatch(out_dtype, [&](auto tag) {
    using T = decltype(tag);
    using Acc = std::conditional_t<std::is_same_v<T, float>, double, int64_t>;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    for (int64_t o = 0; o < l.outer; ++o) {
      for (int64_t i = 0; i < l.inner; ++i) {
        Acc acc = product ? 1 : 0;
        for (int64_t j = 0; j < l.size; ++j) {
          const int64_t at = l.at(o, j, i);
          acc = product ? static_cast<Acc>(acc * src[at]) : static_cast<Acc>(acc + src[at]);
          dst[at] = static_cast<T>(acc);
        }
      }
    }
  });
  return out;
}

// Element-wise index remap: out[idx] = self[source(idx)] with source given per dim.
Tensor remap(const Tensor& self, const std::vector<int64_t>& flips,
             const std::vector<int64_t>& shifts) {
  const int64_t nd = self.dim();
  Tensor out = Tensor::empty(self.shape(), self.dtype());
  const int64_t n = self.numel();
  if (n == 0) return out;
  const std::vector<int64_t> strides = contiguous_strides(self.shape());
  dispatch(self.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = self.data<T>();
    T* dst = out.data<T>();
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t from = 0;
      for (int64_t d = 0; d < nd; ++d) {
        const int64_t size = self.shape()[d];
        int64_t j = idx[d];
        if (flips[d]) j = size - 1 - j;
        j = ((j - shifts[d]) % size + size) % size;
        from += j * strides[d];
      }
      dst[e] = src[from];
      for (int64_t d = nd - 1; d >= 0; --d) {
        if (++idx[d] < self.shape()[d]) break;
        idx[d] = 0;
      }
    }
  });
  return out;
}

Tensor flip(const Tensor& self, const std::vector<int64_t>& dims) {
  std::vector<int64_t> flips(static_cast<size_t>(self.dim()), 0), shifts(flips.size(), 0);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, self.dim());
    if (flips[w])
      fail("dims has duplicates, original flip dims size=" + std::to_string(dims.size()));
    flips[w] = 1;
  }
  if (self.dim() == 0) return self.clone();
  return remap(self, flips, shifts);
}

Tensor roll(const Tensor& self, const std::vector<int64_t>& shifts,
            const std::vector<int64_t>& dims) {
  if (dims.empty()) {  // roll the flattened tensor
    if (shifts.size() != 1)
      fail("shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
           ", dims:0");
    Tensor flat = self.view_as_shape({self.numel()});
    return roll(flat, shifts, {0}).view_as_shape(self.shape());
  }
  if (shifts.size() != dims.size()) {
    fail("shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
         ", dims:" + std::to_string(dims.size()));
  }
  std::vector<int64_t> flips(static_cast<size_t>(self.dim()), 0), by(flips.size(), 0);
  for (size_t k = 0; k < dims.size(); ++k) by[wrap_dim(dims[k], self.dim())] += shifts[k];
  return remap(self, flips, by);
}

// gather/scatter's index checks: same rank, and index.size(d) <= self.size(d) for
// d != dim (PyTorch's gather_shape_check / scatter_shape_check).
void check_index(const char* op, const Tensor& self, int64_t dim, const Tensor& index,
                 const Tensor* src) {
  if (index.dtype() != DType::Int64) fail(std::string(op) + "(): Expected dtype int64 for index");
  const int64_t nd = std::max<int64_t>(self.dim(), 1);
  if (std::max<int64_t>(index.dim(), 1) != nd) {
    fail("Index tensor must have the same number of dimensions as " +
         std::string(src ? "self tensor" : "input tensor"));
  }
  for (int64_t d = 0; d < index.dim(); ++d) {
    if (d == dim) continue;
    if (index.shape()[d] > self.shape()[d]) {
      fail("Size does not match at dimension " + std::to_string(d) + " expected index " +
           shape_str(index.shape()) + " to be smaller than self " + shape_str(self.shape()) +
           " apart from dimension " + std::to_string(dim));
    }
  }
  if (src) {
    for (int64_t d = 0; d < index.dim(); ++d) {
      if (index.shape()[d] > src->shape()[d]) {
        fail("Expected index " + shape_str(index.shape()) + " to be smaller than self " +
             shape_str(self.shape()) + " apart from dimension " + std::to_string(dim) +
             " and to be smaller size than src " + shape_str(src->shape()));
      }
    }
  }
}

// Calls f(self_offset, index_element_offset) for each element of index, with the
// index value wrapped and checked against self's size along dim.
template <typename F>
void for_each_index(const Tensor& self, int64_t dim, const Tensor& index, F f) {
  const int64_t nd = index.dim();
  const int64_t n = index.numel();
  if (n == 0) return;
  const std::vector<int64_t> self_strides = contiguous_strides(self.shape());
  const int64_t* pi = index.data<int64_t>();
  const int64_t size = self.dim() ? self.shape()[dim] : 1;
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t v = pi[e];
    if (v < -size || v >= size) {
      fail("index " + std::to_string(v) + " is out of bounds for dimension " + std::to_string(dim) +
           " with size " + std::to_string(size));
    }
    if (v < 0) v += size;
    int64_t at = 0;
    for (int64_t d = 0; d < nd; ++d) at += (d == dim ? v : idx[d]) * self_strides[d];
    f(at, e, idx);
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++idx[d] < index.shape()[d]) break;
      idx[d] = 0;
    }
  }
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim());
  check_index("gather", self, d, index, nullptr);
  Tensor out = Tensor::empty(index.shape(), self.dtype());
  dispatch(self.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = self.data<T>();
    T* dst = out.data<T>();
    for_each_index(self, d, index,
                   [&](int64_t at, int64_t e, const std::vector<int64_t>&) { dst[e] = src[at]; });
  });
  return out;
}

enum class Reduce { None, Add };

// Writes into `out` (a copy of self, or self for the in-place forms): out[index] = src
// (or += with Add); src is a tensor read at the index element's position, or a value.
void scatter_into(Tensor& out, int64_t dim, const Tensor& index, const IValue& src, Reduce reduce,
                  const char* op) {
  const int64_t d = wrap_dim(dim, out.dim());
  const bool is_tensor = src.is_tensor();
  Tensor s = is_tensor ? as_dtype(src.to_tensor(), out.dtype()) : Tensor();
  check_index(op, out, d, index, is_tensor ? &s : nullptr);
  const std::vector<int64_t> src_strides =
      is_tensor ? contiguous_strides(s.shape()) : std::vector<int64_t>{};
  dispatch(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* dst = out.data<T>();
    const T value = is_tensor ? T{} : static_cast<T>(src.to_double());
    const T* ps = is_tensor ? s.data<T>() : nullptr;
    for_each_index(out, d, index, [&](int64_t at, int64_t, const std::vector<int64_t>& idx) {
      T v = value;
      if (is_tensor) {
        int64_t from = 0;
        for (size_t k = 0; k < idx.size(); ++k) from += idx[k] * src_strides[k];
        v = ps[from];
      }
      if (reduce == Reduce::Add) {
        if constexpr (std::is_same_v<T, bool>) {
          dst[at] = dst[at] || v;
        } else {
          dst[at] += v;
        }
      } else {
        dst[at] = v;
      }
    });
  });
}

}  // namespace

void register_sort(OpRegistry& r) {
  using A = const ValueList&;
  auto t = [](const IValue& v) { return tensor_arg(v); };
  r.add(
      "aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor "
      "indices)",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        const int64_t d = wrap_dim(a[1].to_int(), x.dim());
        return sorted(x, d, x.dim() ? x.shape()[d] : 1, a[2].to_bool());
      });
  r.add(
      "aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
      "(Tensor values, Tensor indices)",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        const int64_t d = wrap_dim(a[2].to_int(), x.dim());
        return sorted(x, d, x.dim() ? x.shape()[d] : 1, a[3].to_bool());
      });
  r.add(
      "aten::argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]);
        const int64_t d = wrap_dim(a[1].to_int(), x.dim());
        return sorted(x, d, x.dim() ? x.shape()[d] : 1, a[2].to_bool()).tuple_items()[1];
      },
      OpTag::NoDerivative);
  r.add(
      "aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> "
      "(Tensor values, Tensor indices)",
      [t](OpContext&, A a) { return topk(t(a[0]), a[1].to_int(), a[2].to_int(), a[3].to_bool()); });
  r.add("aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
        [t](OpContext&, A a) { return tv(scan(t(a[0]), a[1].to_int(), a[2], false)); });
  r.add("aten::cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
        [t](OpContext&, A a) { return tv(scan(t(a[0]), a[1].to_int(), a[2], true)); });
  r.add("aten::flip(Tensor self, int[] dims) -> Tensor",
        [t](OpContext&, A a) { return tv(flip(t(a[0]), a[1].to_int_list())); });
  r.add("aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor",
        [t](OpContext&, A a) { return tv(roll(t(a[0]), a[1].to_int_list(), a[2].to_int_list())); });
  r.add("aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
        [t](OpContext&, A a) { return tv(gather(t(a[0]), a[1].to_int(), t(a[2]))); });
  // The value forms first: a Python number matches a Tensor argument too.
  r.add("aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
        [t](OpContext&, A a) {
          Tensor out = t(a[0]).clone();
          scatter_into(out, a[1].to_int(), t(a[2]), a[3], Reduce::None, "scatter");
          return tv(out);
        });
  r.add("aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
        [t](OpContext&, A a) {
          Tensor out = t(a[0]).clone();
          scatter_into(out, a[1].to_int(), t(a[2]), IValue(t(a[3])), Reduce::None, "scatter");
          return tv(out);
        });
  r.add("aten::scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
        [t](OpContext&, A a) {
          Tensor self = a[0].to_tensor();
          scatter_into(self, a[1].to_int(), t(a[2]), a[3], Reduce::None, "scatter_");
          return a[0];
        });
  r.add("aten::scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
        [t](OpContext&, A a) {
          Tensor self = a[0].to_tensor();
          scatter_into(self, a[1].to_int(), t(a[2]), IValue(t(a[3])), Reduce::None, "scatter_");
          return a[0];
        });
  r.add("aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
        [t](OpContext&, A a) {
          Tensor out = t(a[0]).clone();
          scatter_into(out, a[1].to_int(), t(a[2]), IValue(t(a[3])), Reduce::Add, "scatter_add");
          return tv(out);
        });
  r.add("aten::scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
        [t](OpContext&, A a) {
          Tensor self = a[0].to_tensor();
          scatter_into(self, a[1].to_int(), t(a[2]), IValue(t(a[3])), Reduce::Add, "scatter_add_");
          return a[0];
        });
}

}  // namespace d2s::kernels
