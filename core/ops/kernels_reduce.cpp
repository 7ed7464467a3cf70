// Reductions: sum mean prod max min amax amin argmax argmin norm all any var std
// logsumexp, over the whole tensor or over `dim` (an int or a list), with
// `keepdim`. Every reduction first lays the data out with the reduced
// dimensions last (a permuted copy, skipped when they already are), so that each
// output element reduces one contiguous group, in index order: that makes
// first-index tie-breaking for argmax straightforward. Float sums accumulate in
// double, then round once to float32.
#include <cmath>
#include <limits>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

struct Groups {
  Tensor data;  // contiguous; for output element i, elements [i*k, (i+1)*k)
  int64_t outer = 1;
  int64_t k = 1;
  Shape out_shape;
};

// The dims to reduce, wrapped and checked; None or [] means all of them.
std::vector<int64_t> reduce_dims(const IValue& dim, int64_t ndim) {
  std::vector<int64_t> dims;
  if (!dim.is_none()) {
    for (int64_t d : dim.is_int() ? std::vector<int64_t>{dim.to_int()} : dim.to_int_list()) {
      dims.push_back(wrap_dim(d, ndim));
    }
  }
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) dims.push_back(d);
  }
  std::vector<bool> seen(std::max<int64_t>(ndim, 1), false);
  for (int64_t d : dims) {
    if (seen[d]) fail("dim " + std::to_string(d) + " appears multiple times in the list of dims");
    seen[d] = true;
  }
  return dims;
}

Groups group(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim) {
  Groups g;
  const int64_t nd = t.dim();
  if (nd == 0) {
    g.data = t;
    return g;
  }
  std::vector<bool> reduced(nd, false);
  for (int64_t d : dims) reduced[d] = true;
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < nd; ++d) {
    if (!reduced[d]) {
      perm.push_back(d);
      g.outer *= t.shape()[d];
      g.out_shape.push_back(t.shape()[d]);
    } else if (keepdim) {
      g.out_shape.push_back(1);
    }
  }
  for (int64_t d = 0; d < nd; ++d) {
    if (reduced[d]) {
      perm.push_back(d);
      g.k *= t.shape()[d];
    }
  }
  bool identity = true;
  for (int64_t i = 0; i < nd; ++i) identity = identity && perm[i] == i;
  g.data = identity ? t : permute(t, perm);
  return g;
}

// out[i] = f(group i, k) for each output element, f taking the input type.
template <typename Out, typename F>
Tensor reduce(const Groups& g, DType out_dtype, F f) {
  Tensor out = Tensor::empty(g.out_shape, out_dtype);
  Out* po = out.data<Out>();
  dispatch(g.data.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = g.data.data<T>();
    for (int64_t i = 0; i < g.outer; ++i) po[i] = static_cast<Out>(f(p + i * g.k, g.k));
  });
  return out;
}

Tensor sum(const Tensor& t, const IValue& dim, bool keepdim, const IValue& dtype) {
  const Tensor x = dtype_arg(dtype) ? as_dtype(t, *dtype_arg(dtype)) : t;
  Groups g = group(x, reduce_dims(dim, x.dim()), keepdim);
  if (x.dtype() == DType::Float32) {
    return reduce<float>(g, DType::Float32, [](auto* p, int64_t k) {
      double s = 0;
      for (int64_t j = 0; j < k; ++j) s += p[j];
      return s;
    });
  }
  // Integers and bools sum to int64, as in PyTorch.
  return reduce<int64_t>(g, DType::Int64, [](auto* p, int64_t k) {
    uint64_t s = 0;  // wraps instead of overflowing
    for (int64_t j = 0; j < k; ++j) s += static_cast<uint64_t>(p[j]);
    return static_cast<int64_t>(s);
  });
}

Tensor mean(const Tensor& t, const IValue& dim, bool keepdim, const IValue& dtype) {
  const Tensor x = dtype_arg(dtype) ? as_dtype(t, *dtype_arg(dtype)) : t;
  if (x.dtype() != DType::Float32) {
    fail(std::string("mean(): could not infer output dtype. Input dtype must be either a "
                     "floating point or complex dtype. Got: ") +
         dtype_word(x.dtype()));
  }
  Groups g = group(x, reduce_dims(dim, x.dim()), keepdim);
  return reduce<float>(g, DType::Float32, [](auto* p, int64_t k) {
    double s = 0;
    for (int64_t j = 0; j < k; ++j) s += p[j];
    return k ? s / k : std::numeric_limits<double>::quiet_NaN();
  });
}

Tensor prod(const Tensor& t, const IValue& dim, bool keepdim, const IValue& dtype) {
  const Tensor x = dtype_arg(dtype) ? as_dtype(t, *dtype_arg(dtype)) : t;
  Groups g = group(x, reduce_dims(dim, x.dim()), keepdim);
  if (x.dtype() == DType::Float32) {
    return reduce<float>(g, DType::Float32, [](auto* p, int64_t k) {
      double s = 1;
      for (int64_t j = 0; j < k; ++j) s *= p[j];
      return s;
    });
  }
  return reduce<int64_t>(g, DType::Int64, [](auto* p, int64_t k) {
    uint64_t s = 1;
    for (int64_t j = 0; j < k; ++j) s *= static_cast<uint64_t>(p[j]);
    return static_cast<int64_t>(s);
  });
}

// The index of the largest (or smallest) element of a group, first one on ties;
// NaN counts as larger and smaller than everything, as in PyTorch.
template <typename T>
int64_t best_index(const T* p, int64_t k, bool largest) {
  int64_t best = 0;
  for (int64_t j = 1; j < k; ++j) {
    if constexpr (std::is_same_v<T, float>) {
      if (std::isnan(p[best])) break;
      if (std::isnan(p[j])) {
        best = j;
        break;
      }
    }
    if (largest ? p[j] > p[best] : p[j] < p[best]) best = j;
  }
  return best;
}

const char* extreme_name(bool largest) {
  return largest ? "max" : "min";
}

void check_nonempty_all(const Tensor& t, const char* name) {
  if (t.numel() == 0) {
    fail(std::string(name) +
         "(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
         "reduction dim with the 'dim' argument.");
  }
}

void check_nonempty_dim(const Tensor& t, int64_t d, const char* name) {
  if (t.dim() > 0 && t.shape()[d] == 0) {
    fail(std::string(name) + "(): Expected reduction dim " + std::to_string(d) +
         " to have non-zero size.");
  }
}

// max/min/amax/amin values over `dims`.
Tensor extreme(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim, bool largest) {
  Groups g = group(t, dims, keepdim);
  return dispatch(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    return reduce<T>(g, t.dtype(),
                     [&](auto* p, int64_t k) { return p[best_index(p, k, largest)]; });
  });
}

// max.dim / min.dim: (values, indices).
IValue extreme_dim(const Tensor& t, int64_t dim, bool keepdim, bool largest) {
  const int64_t d = wrap_dim(dim, t.dim());
  check_nonempty_dim(t, d, extreme_name(largest));
  Groups g = group(t, {d}, keepdim);
  Tensor values = dispatch(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    return reduce<T>(g, t.dtype(),
                     [&](auto* p, int64_t k) { return p[best_index(p, k, largest)]; });
  });
  Tensor indices = reduce<int64_t>(g, DType::Int64,
                                   [&](auto* p, int64_t k) { return best_index(p, k, largest); });
  return IValue::tuple({IValue(values), IValue(indices)});
}

Tensor arg_extreme(const Tensor& t, const IValue& dim, bool keepdim, bool largest) {
  const char* name = largest ? "argmax" : "argmin";
  if (t.dtype() == DType::Bool)
    fail(std::string("\"") + name + "_cpu\" not implemented for 'Bool'");
  if (dim.is_none()) {
    check_nonempty_all(t, name);
    // Over the flattened tensor; keepdim keeps every dimension as size 1.
    Groups g = group(t.view_as_shape({t.numel()}), {0}, false);
    Tensor idx = reduce<int64_t>(g, DType::Int64,
                                 [&](auto* p, int64_t k) { return best_index(p, k, largest); });
    return keepdim ? idx.view_as_shape(Shape(t.dim(), 1)) : idx;
  }
  const int64_t d = wrap_dim(dim.to_int(), t.dim());
  check_nonempty_dim(t, d, name);
  Groups g = group(t, {d}, keepdim);
  return reduce<int64_t>(g, DType::Int64,
                         [&](auto* p, int64_t k) { return best_index(p, k, largest); });
}

Tensor norm(const Tensor& t, const IValue& p_arg, const IValue& dim, bool keepdim) {
  if (t.dtype() != DType::Float32) {
    fail(std::string("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                     "Got ") +
         dtype_word(t.dtype()));
  }
  const double p = p_arg.is_none() ? 2.0 : p_arg.to_double();
  Groups g = group(t, reduce_dims(dim, t.dim()), keepdim);
  return reduce<float>(g, DType::Float32, [p](auto* x, int64_t k) {
    double acc = 0;
    if (std::isinf(p)) {
      acc = p > 0 ? 0 : std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < k; ++j) {
        double a = std::abs(static_cast<double>(x[j]));
        acc = std::isnan(a) ? a : (p > 0 ? std::max(acc, a) : std::min(acc, a));
      }
      return acc;
    }
    for (int64_t j = 0; j < k; ++j) {
      double a = std::abs(static_cast<double>(x[j]));
      acc += p == 0 ? (a != 0) : p == 1 ? a : p == 2 ? a * a : std::pow(a, p);
    }
    if (p == 0 || p == 1) return acc;
    return p == 2 ? std::sqrt(acc) : std::pow(acc, 1.0 / p);
  });
}

Tensor all_any(const Tensor& t, const IValue& dim, bool keepdim, bool all) {
  Groups g = group(t, reduce_dims(dim, t.dim()), keepdim);
  return reduce<bool>(g, DType::Bool, [all](auto* p, int64_t k) {
    for (int64_t j = 0; j < k; ++j) {
      if ((p[j] != 0) != all) return !all;
    }
    return all;
  });
}

// var/std with Bessel's correction when unbiased, two passes in double.
// `correction`: the divisor is n - correction (unbiased=True is 1, False 0).
Tensor variance(const Tensor& t, const IValue& dim, int64_t correction, bool keepdim, bool sqrt) {
  if (t.dtype() != DType::Float32) {
    fail(std::string(sqrt ? "std" : "var") + "(): input dtype should be floating point, got " +
         dtype_word(t.dtype()));
  }
  Groups g = group(t, reduce_dims(dim, t.dim()), keepdim);
  return reduce<float>(g, DType::Float32, [=](auto* p, int64_t k) {
    double m = 0, ss = 0;
    for (int64_t j = 0; j < k; ++j) m += p[j];
    m /= k;
    for (int64_t j = 0; j < k; ++j) ss += (p[j] - m) * (p[j] - m);
    const int64_t n = k - correction;
    const double v = n > 0 ? ss / n : std::numeric_limits<double>::quiet_NaN();
    return sqrt ? std::sqrt(v) : v;
  });
}

Tensor logsumexp(const Tensor& t, const IValue& dim, bool keepdim) {
  const Tensor x = as_dtype(t, DType::Float32);
  Groups g = group(x, reduce_dims(dim, x.dim()), keepdim);
  return reduce<float>(g, DType::Float32, [](auto* p, int64_t k) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < k; ++j) m = std::max(m, static_cast<double>(p[j]));
    if (std::isinf(m)) return m;
    double s = 0;
    for (int64_t j = 0; j < k; ++j) s += std::exp(p[j] - m);
    return m + std::log(s);
  });
}

}  // namespace

void register_reduce(OpRegistry& r) {
  using A = const ValueList&;
  auto t = [](const IValue& v) { return tensor_arg(v); };
  r.add(
      "aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(sum(t(a[0]), IValue(), false, a[1])); }, OpTag::Reduction);
  r.add(
      "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(sum(t(a[0]), a[1], a[2].to_bool(), a[3])); },
      OpTag::Reduction);
  r.add(
      "aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(mean(t(a[0]), IValue(), false, a[1])); },
      OpTag::Reduction | OpTag::FloatPromoting);
  r.add(
      "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(mean(t(a[0]), a[1], a[2].to_bool(), a[3])); },
      OpTag::Reduction | OpTag::FloatPromoting);
  r.add(
      "aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(prod(t(a[0]), IValue(), false, a[1])); }, OpTag::Reduction);
  r.add(
      "aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(prod(t(a[0]), a[1], a[2].to_bool(), a[3])); },
      OpTag::Reduction);

  for (bool largest : {true, false}) {
    const std::string name = extreme_name(largest);
    r.add(
        "aten::" + name + "(Tensor self) -> Tensor",
        [=](OpContext&, A a) {
          Tensor x = t(a[0]);
          check_nonempty_all(x, extreme_name(largest));
          return tv(extreme(x, reduce_dims(IValue(), x.dim()), false, largest));
        },
        OpTag::Reduction);
    r.add(
        "aten::" + name +
            ".dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        [=](OpContext&, A a) {
          return extreme_dim(t(a[0]), a[1].to_int(), a[2].to_bool(), largest);
        },
        OpTag::Reduction);
    r.add(
        "aten::" + name + ".other(Tensor self, Tensor other) -> Tensor",
        [=](OpContext&, A a) {
          return tv(binary_op(largest ? BinaryOp::Maximum : BinaryOp::Minimum, a[0], a[1]));
        },
        OpTag::Pointwise);
    r.add(
        "aten::a" + name + "(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
        [=](OpContext&, A a) {
          Tensor x = t(a[0]);
          std::vector<int64_t> dims = reduce_dims(a[1], x.dim());
          for (int64_t d : dims) check_nonempty_dim(x, d, ("a" + name).c_str());
          return tv(extreme(x, dims, a[2].to_bool(), largest));
        },
        OpTag::Reduction);
    r.add(
        "aten::arg" + name + "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
        [=](OpContext&, A a) { return tv(arg_extreme(t(a[0]), a[1], a[2].to_bool(), largest)); },
        OpTag::Reduction | OpTag::NoDerivative);
  }

  r.add(
      "aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor",
      [t](OpContext&, A a) { return tv(norm(t(a[0]), a[1], IValue(), false)); },
      OpTag::Reduction | OpTag::FloatPromoting);
  r.add(
      "aten::norm.ScalarOpt_dim(Tensor self, Scalar? p=2, int[1] dim, bool keepdim=False) -> "
      "Tensor",
      [t](OpContext&, A a) { return tv(norm(t(a[0]), a[1], a[2], a[3].to_bool())); },
      OpTag::Reduction | OpTag::FloatPromoting);
  for (bool all : {true, false}) {
    const std::string name = all ? "all" : "any";
    r.add(
        "aten::" + name + "(Tensor self) -> Tensor",
        [=](OpContext&, A a) { return tv(all_any(t(a[0]), IValue(), false, all)); },
        OpTag::Reduction | OpTag::NoDerivative | OpTag::NoOnnx);
    r.add(
        "aten::" + name + ".dim(Tensor self, int dim, bool keepdim=False) -> Tensor",
        [=](OpContext&, A a) { return tv(all_any(t(a[0]), a[1], a[2].to_bool(), all)); },
        OpTag::Reduction | OpTag::NoDerivative | OpTag::NoOnnx);
  }
  for (bool sq : {false, true}) {
    const std::string name = sq ? "std" : "var";
    r.add(
        "aten::" + name + "(Tensor self, bool unbiased=True) -> Tensor",
        [=](OpContext&, A a) {
          return tv(variance(t(a[0]), IValue(), a[1].to_bool() ? 1 : 0, false, sq));
        },
        OpTag::Reduction | OpTag::FloatPromoting | OpTag::NoOnnx);
    r.add(
        "aten::" + name +
            ".dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
        [=](OpContext&, A a) {
          return tv(variance(t(a[0]), a[1], a[2].to_bool() ? 1 : 0, a[3].to_bool(), sq));
        },
        OpTag::Reduction | OpTag::FloatPromoting | OpTag::NoOnnx);
    r.add(
        "aten::" + name +
            ".correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> "
            "Tensor",
        [=](OpContext&, A a) {
          const int64_t c = a[2].is_none() ? 1 : a[2].to_int();
          return tv(variance(t(a[0]), a[1], c, a[3].to_bool(), sq));
        },
        OpTag::Reduction | OpTag::FloatPromoting | OpTag::NoOnnx);
  }
  r.add(
      "aten::logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
      [t](OpContext&, A a) { return tv(logsumexp(t(a[0]), a[1], a[2].to_bool())); },
      OpTag::Reduction | OpTag::FloatPromoting);
}

}  // namespace d2s::kernels
