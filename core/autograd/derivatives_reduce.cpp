// Derivatives of the reductions (core/ops/kernels_reduce.cpp). Each puts the result and
// its gradient back at the reduced dims (keepdim) and broadcasts them over the input.
#include <cmath>

#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

// The result and gradient of a reduction over `dims` broadcast to x's shape.
struct Spread {
  Tensor x, y, g;
  double count = 1;  // elements per reduced group
};

Spread spread(In in, const std::vector<int64_t>& dims, bool keepdim) {
  Spread s;
  s.x = in.args[0].to_tensor();
  const int64_t rank = s.x.dim();
  const IValue shape = IValue::int_list(s.x.shape());
  auto back = [&](const Tensor& t) {
    return op("aten::expand", {IValue(unsqueeze_dims(t, dims, rank, keepdim)), shape});
  };
  s.y = back(float_tensors_of(in.result)[0]);
  s.g = back(in.grads[0]);
  for (int64_t d : dims) s.count *= static_cast<double>(s.x.shape()[static_cast<size_t>(d)]);
  return s;
}

std::vector<int64_t> all_dims(const IValue& self) {
  return reduce_dims_of(IValue(), self.to_tensor().dim());
}

ValueList with_first(const GradInputs& in, Tensor g) {
  ValueList out(in.args.size());
  out[0] = IValue(std::move(g));
  return out;
}

ValueList sum_grad(In in, const std::vector<int64_t>& dims, bool keepdim) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  return with_first(in, spread(in, dims, keepdim).g);
}

ValueList mean_grad(In in, const std::vector<int64_t>& dims, bool keepdim) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  Spread s = spread(in, dims, keepdim);
  return with_first(in, scale(s.g, 1.0 / s.count));
}

ValueList prod_grad(In in, const std::vector<int64_t>& dims, bool keepdim) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  Spread s = spread(in, dims, keepdim);
  return with_first(in, div(mul(s.g, s.y), s.x));
}

// max/min/amax/amin over dims: the gradient is shared evenly by the elements equal
// to the extreme, as PyTorch's evenly_distribute_backward does.
ValueList extreme_grad(In in, const std::vector<int64_t>& dims, bool keepdim) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  Spread s = spread(in, dims, keepdim);
  Tensor mask =
      map3(s.x, s.y, Tensor(), [](float x, float y, float) { return x == y ? 1.0f : 0.0f; });
  Tensor ties = op("aten::sum", {IValue(mask), IValue::int_list(dims), IValue(true)});
  ties = op("aten::expand", {IValue(ties), IValue::int_list(s.x.shape())});
  return with_first(in, div(mul(s.g, mask), ties));
}

// max.dim/min.dim: the gradient goes to the index the op returned.
ValueList extreme_dim_grad(In in) {
  const Tensor x = in.args[0].to_tensor();
  const int64_t dim = kernels::wrap_dim(in.args[1].to_int(), x.dim());
  const bool keepdim = in.args[2].to_bool();
  const Tensor idx = in.result.tuple_items()[1].to_tensor();
  Tensor gx = Tensor::zeros(x.shape());
  const Tensor g = in.grads[0].to(DType::Float32);
  int64_t size = x.dim() == 0 ? 1 : x.shape()[static_cast<size_t>(dim)];
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.shape()[static_cast<size_t>(d)];
  const int64_t outer = size == 0 ? 0 : x.numel() / (size * inner);
  (void)keepdim;  // g and idx have one element per (outer, inner) either way
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t k = idx.data<int64_t>()[o * inner + i];
      gx.data<float>()[(o * size + k) * inner + i] += g.data<float>()[o * inner + i];
    }
  }
  return with_first(in, gx);
}

ValueList norm_grad(In in, const IValue& p_arg, const std::vector<int64_t>& dims, bool keepdim) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  const double p = p_arg.is_none() ? 2.0 : p_arg.to_double();
  Spread s = spread(in, dims, keepdim);
  Tensor local = map3(s.x, s.y, Tensor(), [p](float x, float y, float) {
    const float sign = x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f;
    if (p == 0) return 0.0f;
    if (p == 1) return sign;
    if (std::isinf(p)) return std::abs(x) == y ? sign : 0.0f;
    if (y == 0) return 0.0f;
    if (p == 2) return x / y;
    return static_cast<float>(sign * std::pow(std::abs(x), p - 1) / std::pow(y, p - 1));
  });
  return with_first(in, mul(s.g, local));
}

ValueList variance_grad(In in, const IValue& dim, int64_t correction, bool keepdim, bool is_std) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  const std::vector<int64_t> dims = reduce_dims_of(dim, in.args[0].to_tensor().dim());
  Spread s = spread(in, dims, keepdim);
  Tensor mean = op("aten::mean", {IValue(s.x), IValue::int_list(dims), IValue(true)});
  mean = op("aten::expand", {IValue(mean), IValue::int_list(s.x.shape())});
  const double n = static_cast<double>(s.count - correction);
  Tensor local = map3(s.x, mean, s.y, [=](float x, float m, float y) {
    const float dvar = static_cast<float>(2 * (x - m) / n);
    return is_std ? dvar / (2 * y) : dvar;
  });
  return with_first(in, mul(s.g, local));
}

ValueList logsumexp_grad(In in) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  const std::vector<int64_t> dims = reduce_dims_of(in.args[1], in.args[0].to_tensor().dim());
  Spread s = spread(in, dims, in.args[2].to_bool());
  return with_first(
      in, map3(s.g, s.x, s.y, [](float g, float x, float y) { return g * std::exp(x - y); }));
}

std::vector<int64_t> dims_arg(In in, size_t i) {
  return reduce_dims_of(in.args[i], in.args[0].to_tensor().dim());
}

}  // namespace

void register_derivatives_reduce(OpRegistry& r) {
  // A sum's and a mean's gradient is spread by shape: they read no data.
  r.set_derivative(
      "aten::sum", [](In in) { return sum_grad(in, all_dims(in.args[0]), false); },
      SavedData::nothing());
  r.set_derivative(
      "aten::sum.dim_IntList",
      [](In in) { return sum_grad(in, dims_arg(in, 1), in.args[2].to_bool()); },
      SavedData::nothing());
  r.set_derivative(
      "aten::mean", [](In in) { return mean_grad(in, all_dims(in.args[0]), false); },
      SavedData::nothing());
  r.set_derivative(
      "aten::mean.dim", [](In in) { return mean_grad(in, dims_arg(in, 1), in.args[2].to_bool()); },
      SavedData::nothing());
  r.set_derivative("aten::prod", [](In in) { return prod_grad(in, all_dims(in.args[0]), false); });
  r.set_derivative("aten::prod.dim_int",
                   [](In in) { return prod_grad(in, dims_arg(in, 1), in.args[2].to_bool()); });
  for (const char* name : {"aten::max", "aten::min"}) {
    r.set_derivative(name, [](In in) { return extreme_grad(in, all_dims(in.args[0]), false); });
    r.set_derivative(std::string(name) + ".dim", extreme_dim_grad);
  }
  for (const char* name : {"aten::amax", "aten::amin"}) {
    r.set_derivative(name,
                     [](In in) { return extreme_grad(in, dims_arg(in, 1), in.args[2].to_bool()); });
  }
  r.set_derivative("aten::norm.Scalar",
                   [](In in) { return norm_grad(in, in.args[1], all_dims(in.args[0]), false); });
  r.set_derivative("aten::norm.ScalarOpt_dim", [](In in) {
    return norm_grad(in, in.args[1], dims_arg(in, 2), in.args[3].to_bool());
  });
  for (bool is_std : {false, true}) {
    const std::string name = is_std ? "aten::std" : "aten::var";
    r.set_derivative(name, [is_std](In in) {
      return variance_grad(in, IValue(), in.args[1].to_bool() ? 1 : 0, false, is_std);
    });
    r.set_derivative(name + ".dim", [is_std](In in) {
      return variance_grad(in, in.args[1], in.args[2].to_bool() ? 1 : 0, in.args[3].to_bool(),
                           is_std);
    });
    r.set_derivative(name + ".correction", [is_std](In in) {
      const int64_t c = in.args[2].is_none() ? 1 : in.args[2].to_int();
      return variance_grad(in, in.args[1], c, in.args[3].to_bool(), is_std);
    });
  }
  r.set_derivative("aten::logsumexp", logsumexp_grad);
}

}  // namespace d2s::grad
