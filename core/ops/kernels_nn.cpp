// torch.nn.functional ops: linear, gelu, silu, leaky_relu, softplus, softmax,
// log_softmax, layer_norm, dropout, mse_loss. (relu, tanh and sigmoid are the
// elementwise kernels.) Float32 only, with PyTorch's messages for other dtypes.
#include <cmath>
#include <limits>

#include "core/ops/kernels.h"
#include "core/tensor/random.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

void require_float(const Tensor& t, const char* kernel) {
  if (t.dtype() != DType::Float32) {
    fail(std::string("\"") + kernel + "\" not implemented for '" + dtype_word(t.dtype()) + "'");
  }
}

template <typename F>
Tensor map_float(const Tensor& x, const char* kernel, F f) {
  require_float(x, kernel);
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  unary_loop<float, float>(x, out, f);
  return out;
}

Tensor linear(const Tensor& input, const Tensor& weight, const IValue& bias) {
  if (weight.dim() > 2) {
    fail("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(weight.dim()) +
         "D");
  }
  Tensor fast;
  if (linear_2d(input, weight, bias, &fast)) return fast;
  // input @ weight.T: matmul folds leading dims, so a mismatch reads as mm's
  // "mat1 and mat2 shapes cannot be multiplied (1x10 and 20x20)".
  const Tensor wt = weight.dim() == 2 ? permute(weight, {1, 0}) : weight;
  Tensor out = matmul(input, wt);
  if (!bias.is_none()) out = binary_op(BinaryOp::Add, IValue(out), bias);
  return out;
}

Tensor gelu(const Tensor& x, const std::string& approximate) {
  if (approximate == "none") {
    const float alpha = static_cast<float>(M_SQRT1_2);
    return map_float(x, "GeluKernelImpl",
                     [alpha](float v) { return v * 0.5f * (1.0f + std::erf(v * alpha)); });
  }
  if (approximate == "tanh") {
    const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5);
    const float kappa = 0.044715f;
    return map_float(x, "GeluKernelImpl", [=](float v) {
      const float inner = beta * (v + kappa * v * v * v);
      return 0.5f * v * (1.0f + std::tanh(inner));
    });
  }
  fail("approximate argument must be either none or tanh.");
}

// softmax and log_softmax along `dim`, one (outer, inner) line at a time.
Tensor softmax(const Tensor& in, const IValue& dim_arg, const IValue& dtype, bool log) {
  const Tensor x = dtype_arg(dtype) ? as_dtype(in, *dtype_arg(dtype)) : in;
  require_float(x, log ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl");
  const int64_t nd = x.dim();
  // No dim given: PyTorch's legacy choice (_get_softmax_dim), with a warning there.
  const int64_t dim = dim_arg.is_none() ? ((nd == 0 || nd == 1 || nd == 3) ? 0 : 1)
                                        : wrap_dim(dim_arg.to_int(), nd);
  const int64_t n = nd ? x.shape()[dim] : 1;
  const int64_t inner = nd ? shape_numel(Shape(x.shape().begin() + dim + 1, x.shape().end())) : 1;
  const int64_t outer = (n * inner != 0) ? x.numel() / (n * inner) : 0;
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  const float* p = x.data<float>();
  float* o = out.data<float>();
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t b = 0; b < inner; ++b) {
      const int64_t base = a * n * inner + b;
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < n; ++j) m = std::max(m, p[base + j * inner]);
      double sum = 0;
      for (int64_t j = 0; j < n; ++j) {
        const float e = std::exp(p[base + j * inner] - m);
        if (!log) o[base + j * inner] = e;
        sum += e;
      }
      if (log) {
        const float lse = static_cast<float>(std::log(sum));
        for (int64_t j = 0; j < n; ++j) o[base + j * inner] = p[base + j * inner] - m - lse;
      } else {
        const float s = static_cast<float>(sum);
        for (int64_t j = 0; j < n; ++j) o[base + j * inner] /= s;
      }
    }
  }
  return out;
}

Tensor layer_norm(const Tensor& x, const std::vector<int64_t>& normalized, const IValue& weight,
                  const IValue& bias, double eps) {
  const Shape norm(normalized.begin(), normalized.end());
  const int64_t k = static_cast<int64_t>(norm.size());
  bool fits = k <= x.dim();
  for (int64_t i = 0; fits && i < k; ++i) fits = x.shape()[x.dim() - k + i] == norm[i];
  if (!fits) {
    std::string expected = "[*";
    for (int64_t s : norm) expected += ", " + std::to_string(s);
    fail("Given normalized_shape=" + shape_str(norm) + ", expected input with shape " + expected +
         "], but got input of size" + shape_str(x.shape()));
  }
  for (const IValue* v : {&weight, &bias}) {
    if (!v->is_none() && tensor_arg(*v).shape() != norm) {
      fail(std::string("Expected ") + (v == &weight ? "weight" : "bias") +
           " to be of same shape as normalized_shape, but got " +
           (v == &weight ? "weight" : "bias") + " of shape " + shape_str(tensor_arg(*v).shape()) +
           " and normalized_shape = " + shape_str(norm));
    }
  }
  require_float(x, "LayerNormKernelImpl");
  const int64_t row = shape_numel(norm);
  const int64_t rows = row ? x.numel() / row : 0;
  const Tensor w = weight.is_none() ? Tensor() : as_dtype(tensor_arg(weight), DType::Float32);
  const Tensor b = bias.is_none() ? Tensor() : as_dtype(tensor_arg(bias), DType::Float32);
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  const float* p = x.data<float>();
  float* o = out.data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = p + r * row;
    double mean = 0, var = 0;
    for (int64_t j = 0; j < row; ++j) mean += xr[j];
    mean /= row;
    for (int64_t j = 0; j < row; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    var /= row;  // biased, as layer_norm uses
    const float m = static_cast<float>(mean);
    const float rstd = static_cast<float>(1.0 / std::sqrt(var + eps));
    for (int64_t j = 0; j < row; ++j) {
      float y = (xr[j] - m) * rstd;
      if (w.defined()) y *= w.data<float>()[j];
      if (b.defined()) y += b.data<float>()[j];
      o[r * row + j] = y;
    }
  }
  return out;
}

// Inverted dropout: keep each element with probability 1 - p, scaled by
// 1 / (1 - p). Active when `training` says so, or when it is None and the
// context is in training mode.
Tensor dropout(OpContext& ctx, const Tensor& x, double p, const IValue& training) {
  if (p < 0 || p > 1) {
    fail("dropout probability has to be between 0 and 1, but got " + IValue(p).repr());
  }
  const bool active = training.is_none() ? ctx.training : training.to_bool();
  if (!active || p == 0) return x.clone();
  require_float(x, "bernoulli_tensor_cpu_p_");
  if (!ctx.generator) fail("dropout(): no random generator was given to this call");
  Generator& g = *ctx.generator;
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  const float* in = x.data<float>();
  float* o = out.data<float>();
  const float scale = p == 1 ? 0.0f : 1.0f / static_cast<float>(1.0 - p);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const bool keep = static_cast<double>(g.uniform()) < 1.0 - p;
    o[i] = keep ? in[i] * scale : in[i] * 0.0f;
  }
  return out;
}

Tensor mse_loss(const IValue& input, const IValue& target, const IValue& reduction) {
  int64_t mode = 1;
  if (reduction.is_string()) {
    const std::string& r = reduction.to_string();
    if (r == "none")
      mode = 0;
    else if (r == "mean")
      mode = 1;
    else if (r == "sum")
      mode = 2;
    else
      fail(r + " is not a valid value for reduction");
  } else if (reduction.is_int()) {
    mode = reduction.to_int();
  }
  Tensor diff = binary_op(BinaryOp::Sub, input, target);
  Tensor sq = binary_op(BinaryOp::Mul, IValue(diff), IValue(diff));
  require_float(sq, "mse_cpu");
  if (mode == 0) return sq;
  double s = 0;
  for (int64_t i = 0; i < sq.numel(); ++i) s += sq.data<float>()[i];
  if (mode == 1) s = sq.numel() ? s / sq.numel() : std::numeric_limits<double>::quiet_NaN();
  return Tensor::scalar(s);
}

}  // namespace

void register_nn(OpRegistry& r) {
  using A = const ValueList&;
  auto t = [](const IValue& v) { return tensor_arg(v); };
  r.add("aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
        [t](OpContext&, A a) { return tv(linear(t(a[0]), t(a[1]), a[2])); });
  r.add(
      "aten::gelu(Tensor self, *, str approximate='none') -> Tensor",
      [t](OpContext&, A a) { return tv(gelu(t(a[0]), a[1].to_string())); },
      OpTag::Pointwise | OpTag::FloatPromoting);
  r.add(
      "aten::silu(Tensor self) -> Tensor",
      [t](OpContext&, A a) {
        return tv(map_float(t(a[0]), "silu", [](float v) { return v / (1.0f + std::exp(-v)); }));
      },
      OpTag::Pointwise | OpTag::FloatPromoting);
  r.add(
      "aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor",
      [t](OpContext&, A a) {
        const float slope = static_cast<float>(a[1].to_double());
        return tv(map_float(t(a[0]), "leaky_relu_cpu",
                            [slope](float v) { return v > 0 ? v : v * slope; }));
      },
      OpTag::Pointwise);
  r.add(
      "aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor",
      [t](OpContext&, A a) {
        const float beta = static_cast<float>(a[1].to_double());
        const float threshold = static_cast<float>(a[2].to_double());
        return tv(map_float(t(a[0]), "softplus_cpu", [=](float v) {
          return v * beta > threshold ? v : std::log1p(std::exp(v * beta)) / beta;
        }));
      },
      OpTag::Pointwise | OpTag::FloatPromoting);
  r.add(
      "aten::softmax.int(Tensor self, int? dim=None, ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(softmax(t(a[0]), a[1], a[2], false)); },
      OpTag::FloatPromoting);
  r.add(
      "aten::log_softmax.int(Tensor self, int? dim=None, ScalarType? dtype=None) -> Tensor",
      [t](OpContext&, A a) { return tv(softmax(t(a[0]), a[1], a[2], true)); },
      OpTag::FloatPromoting);
  r.add(
      "aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
      "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
      [t](OpContext&, A a) {
        return tv(layer_norm(t(a[0]), a[1].to_int_list(), a[2], a[3], a[4].to_double()));
      },
      OpTag::FloatPromoting);
  r.add(
      "aten::dropout(Tensor input, float p=0.5, bool? training=None, bool inplace=False) -> "
      "Tensor",
      [t](OpContext& c, A a) { return tv(dropout(c, t(a[0]), a[1].to_double(), a[2])); },
      OpTag::Random);
  r.add("aten::mse_loss(Tensor input, Tensor target, Any reduction='mean') -> Tensor",
        [](OpContext&, A a) { return tv(mse_loss(a[0], a[1], a[2])); });
}

}  // namespace d2s::kernels
