// Advanced indexing: aten::index (x[idx], x[mask], x[:, [-1]], x[rows, cols]) and
// aten::index_put / index_put_ (x[mask] = v, x[idx] += ...), as PyTorch's
// TensorIterator-based index kernels define them.
//
// `indices` holds one optional tensor per leading dimension of self (None: the whole
// dimension). A bool mask stands for as many dimensions as it has, and becomes the
// long indices of its true elements (nonzero). The index tensors broadcast together
// to one shape B; the result has B in place of the indexed dimensions when those are
// adjacent, and B first otherwise (NumPy's rule, which PyTorch follows).
#include "core/ops/kernels_index.h"

#include <algorithm>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

// The long index tensors standing for `indices` (undefined: None), masks expanded.
std::vector<Tensor> expand_indices(const Shape& self, const ValueList& indices) {
  std::vector<Tensor> out;
  const int64_t nd = static_cast<int64_t>(self.size());
  for (const IValue& v : indices) {
    if (v.is_none()) {
      out.emplace_back();
      continue;
    }
    Tensor t = tensor_arg(v);
    if (t.dtype() == DType::Float32) {
      fail("IndexError: tensors used as indices must be long, byte or bool tensors");
    }
    if (t.dtype() == DType::Int64) {
      out.push_back(t);
      continue;
    }
    // A mask: its dims must match self's, starting at the dim it is at.
    const int64_t at = static_cast<int64_t>(out.size());
    if (at + t.dim() > nd) {
      fail("IndexError: too many indices for tensor of dimension " + std::to_string(nd));
    }
    for (int64_t j = 0; j < t.dim(); ++j) {
      if (t.shape()[j] != self[at + j]) {
        fail("IndexError: The shape of the mask " + shape_str(t.shape()) + " at index " +
             std::to_string(j) + " does not match the shape of the indexed tensor " +
             shape_str(self) + " at index " + std::to_string(at + j));
      }
    }
    std::vector<Tensor> coords = nonzero_coordinates(t);
    out.insert(out.end(), coords.begin(), coords.end());
  }
  if (static_cast<int64_t>(out.size()) > nd) {
    fail("IndexError: too many indices for tensor of dimension " + std::to_string(nd));
  }
  return out;
}

std::string shapes_list(const std::vector<Tensor>& ts) {
  std::string s;
  for (const Tensor& t : ts) {
    if (!t.defined()) continue;
    if (!s.empty()) s += ", ";
    s += shape_str(t.shape());
  }
  return s;
}

}  // namespace

std::vector<Tensor> nonzero_coordinates(const Tensor& mask) {
  const Tensor m = as_dtype(mask, DType::Bool);
  const bool* p = m.data<bool>();
  const int64_t n = m.numel(), nd = m.dim();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += p[i] ? 1 : 0;
  std::vector<Tensor> out;
  for (int64_t d = 0; d < nd; ++d) out.push_back(Tensor::empty({count}, DType::Int64));
  const std::vector<int64_t> strides = contiguous_strides(m.shape());
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!p[i]) continue;
    int64_t rest = i;
    for (int64_t d = 0; d < nd; ++d) {
      out[d].data<int64_t>()[k] = rest / strides[d];
      rest %= strides[d];
    }
    ++k;
  }
  return out;
}

IndexPlan plan_index(const Shape& self, const ValueList& indices) {
  const std::vector<Tensor> idx = expand_indices(self, indices);
  const int64_t nd = static_cast<int64_t>(self.size());
  // The broadcast shape of the index tensors.
  Shape b;
  bool first = true;
  std::vector<int64_t> indexed;  // the dims with an index tensor, ascending
  for (size_t d = 0; d < idx.size(); ++d) {
    if (!idx[d].defined()) continue;
    indexed.push_back(static_cast<int64_t>(d));
    if (first) {
      b = idx[d].shape();
      first = false;
      continue;
    }
    try {
      b = broadcast_shapes(b, idx[d].shape());
    } catch (const Error&) {
      fail(
          "IndexError: shape mismatch: indexing tensors could not be broadcast together with "
          "shapes " +
          shapes_list(idx));
    }
  }
  IndexPlan plan;
  const std::vector<int64_t> strides = contiguous_strides(self);
  if (indexed.empty()) {  // only None: every element, in order
    plan.shape = self;
    plan.offsets.resize(static_cast<size_t>(shape_numel(self)));
    for (size_t i = 0; i < plan.offsets.size(); ++i) plan.offsets[i] = static_cast<int64_t>(i);
    return plan;
  }
  const bool adjacent =
      indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  // Each result element is pre * B * post; pre: the non-indexed dims before the
  // indexed ones (when adjacent), post: the other non-indexed dims.
  std::vector<int64_t> pre_dims, post_dims;
  for (int64_t d = 0; d < nd; ++d) {
    if (std::find(indexed.begin(), indexed.end(), d) != indexed.end()) continue;
    (adjacent && d < indexed.front() ? pre_dims : post_dims).push_back(d);
  }
  auto offsets_of = [&](const std::vector<int64_t>& dims) {
    std::vector<int64_t> offs{0};
    for (int64_t d : dims) {
      std::vector<int64_t> next;
      next.reserve(offs.size() * static_cast<size_t>(self[d]));
      for (int64_t o : offs) {
        for (int64_t j = 0; j < self[d]; ++j) next.push_back(o + j * strides[d]);
      }
      offs = std::move(next);
    }
    return offs;
  };
  const std::vector<int64_t> pre = offsets_of(pre_dims), post = offsets_of(post_dims);
  // The offset of each element of B: the sum over indexed dims of index * stride.
  const int64_t nb = shape_numel(b);
  std::vector<int64_t> boff(static_cast<size_t>(nb), 0);
  for (int64_t d : indexed) {
    const Tensor& t = idx[d];
    const std::vector<int64_t> bs = broadcast_strides(t.shape(), b);
    const Tensor full = strided_copy(t, b, bs, 0);
    const int64_t* p = full.data<int64_t>();
    for (int64_t k = 0; k < nb; ++k) {
      int64_t i = p[k];
      if (i < -self[d] || i >= self[d]) {
        fail("IndexError: index " + std::to_string(i) + " is out of bounds for dimension " +
             std::to_string(d) + " with size " + std::to_string(self[d]));
      }
      if (i < 0) i += self[d];
      boff[k] += i * strides[d];
    }
  }
  for (int64_t d : pre_dims) plan.shape.push_back(self[d]);
  plan.shape.insert(plan.shape.end(), b.begin(), b.end());
  for (int64_t d : post_dims) plan.shape.push_back(self[d]);
  plan.offsets.reserve(pre.size() * boff.size() * post.size());
  for (int64_t p : pre) {
    for (int64_t o : boff) {
      for (int64_t q : post) plan.offsets.push_back(p + o + q);
    }
  }
  return plan;
}

Tensor index(const Tensor& self, const ValueList& indices) {
  const IndexPlan plan = plan_index(self.shape(), indices);
  Tensor out = Tensor::empty(plan.shape, self.dtype());
  dispatch(self.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = self.data<T>();
    T* dst = out.data<T>();
    for (size_t i = 0; i < plan.offsets.size(); ++i) dst[i] = src[plan.offsets[i]];
  });
  return out;
}

void index_put_into(Tensor& self, const ValueList& indices, const IValue& values, bool accumulate) {
  const IndexPlan plan = plan_index(self.shape(), indices);
  Tensor v = as_dtype(tensor_arg(values), self.dtype());
  try {
    if (broadcast_shapes(v.shape(), plan.shape) != plan.shape) throw Error("");
  } catch (const Error&) {
    fail("shape mismatch: value tensor of shape " + shape_str(v.shape()) +
         " cannot be broadcast to indexing result of shape " + shape_str(plan.shape));
  }
  v = broadcast_to(v, plan.shape);
  dispatch(self.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = v.data<T>();
    T* dst = self.data<T>();
    for (size_t i = 0; i < plan.offsets.size(); ++i) {
      if (accumulate) {
        if constexpr (std::is_same_v<T, bool>) {
          dst[plan.offsets[i]] = dst[plan.offsets[i]] || src[i];
        } else {
          dst[plan.offsets[i]] += src[i];
        }
      } else {
        dst[plan.offsets[i]] = src[i];
      }
    }
  });
}

void register_index(OpRegistry& r) {
  using A = const ValueList&;
  r.add("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
        [](OpContext&, A a) { return tv(index(tensor_arg(a[0]), a[1].items())); });
  r.add(
      "aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool "
      "accumulate=False) -> Tensor(a!)",
      [](OpContext&, A a) {
        Tensor self = a[0].to_tensor();
        index_put_into(self, a[1].items(), a[2], a[3].to_bool());
        return a[0];
      });
  r.add(
      "aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) "
      "-> Tensor",
      [](OpContext&, A a) {
        Tensor out = tensor_arg(a[0]).clone();
        index_put_into(out, a[1].items(), a[2], a[3].to_bool());
        return tv(out);
      });
}

}  // namespace d2s::kernels
