// Derivatives of the torch.nn.functional ops (core/ops/kernels_nn.cpp) other than linear.
#include <cmath>

#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

ValueList gelu_grad(In in) {
  const Tensor x = in.args[0].to_tensor();
  const bool tanh_form = in.args[1].to_string() == "tanh";
  return first_only(in, map3(in.grads[0], x, Tensor(), [tanh_form](float g, float v, float) {
                      if (tanh_form) {
                        const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5);
                        const float kappa = 0.044715f;
                        const float inner = beta * (v + kappa * v * v * v);
                        const float t = std::tanh(inner);
                        const float dinner = beta * (1 + 3 * kappa * v * v);
                        return g * (0.5f * (1 + t) + 0.5f * v * (1 - t * t) * dinner);
                      }
                      const float cdf = 0.5f * (1 + std::erf(v * static_cast<float>(M_SQRT1_2)));
                      const float pdf = std::exp(-0.5f * v * v) *
                                        static_cast<float>(0.5 * M_2_SQRTPI * M_SQRT1_2);
                      return g * (cdf + v * pdf);
                    }));
}

// softmax: y (g - sum(g y)); log_softmax: g - exp(y) sum(g), along the op's dim.
ValueList softmax_grad(In in, bool log) {
  const Tensor x = in.args[0].to_tensor();
  const int64_t nd = x.dim();
  const int64_t dim = in.args[1].is_none() ? ((nd == 0 || nd == 1 || nd == 3) ? 0 : 1)
                                           : kernels::wrap_dim(in.args[1].to_int(), nd);
  const Tensor& y = result_tensor(in);
  const Tensor& g = in.grads[0];
  const IValue dims = IValue::int_list({dim});
  if (nd == 0) return first_only(in, Tensor::zeros(x.shape()));
  if (log) {
    Tensor s = op("aten::sum", {IValue(g), dims, IValue(true)});
    return first_only(in, sub(g, mul(op("aten::exp", {IValue(y)}), s)));
  }
  Tensor gy = mul(g, y);
  Tensor s = op("aten::sum", {IValue(gy), dims, IValue(true)});
  return first_only(in, sub(gy, mul(y, s)));
}

// layer_norm over the last k dims: x̂ = (x - mean) rstd, y = x̂ w + b.
ValueList layer_norm_grad(In in) {
  const Tensor x = in.args[0].to_tensor().to(DType::Float32);
  const std::vector<int64_t> norm = in.args[1].to_int_list();
  const IValue& weight = in.args[2];
  const IValue& bias = in.args[3];
  const double eps = in.args[4].to_double();
  const Tensor g = in.grads[0].to(DType::Float32);
  const int64_t row = shape_numel(Shape(norm.begin(), norm.end()));
  const int64_t rows = row ? x.numel() / row : 0;
  const Tensor w = weight.is_none() ? Tensor() : tensor_of(weight).to(DType::Float32);
  Tensor gx = Tensor::zeros(x.shape());
  Tensor gw = Tensor::zeros({row});
  Tensor gb = Tensor::zeros({row});
  std::vector<double> xhat(static_cast<size_t>(row)), gxhat(static_cast<size_t>(row));
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x.data<float>() + r * row;
    const float* gr = g.data<float>() + r * row;
    double mean = 0, var = 0;
    for (int64_t j = 0; j < row; ++j) mean += xr[j];
    mean /= row;
    for (int64_t j = 0; j < row; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    var /= row;
    const double rstd = 1.0 / std::sqrt(var + eps);
    double mean_gxhat = 0, mean_gxhat_xhat = 0;
    for (int64_t j = 0; j < row; ++j) {
      const size_t k = static_cast<size_t>(j);
      xhat[k] = (xr[j] - mean) * rstd;
      gxhat[k] = gr[j] * (w.defined() ? w.data<float>()[j] : 1.0f);
      mean_gxhat += gxhat[k];
      mean_gxhat_xhat += gxhat[k] * xhat[k];
      gw.data<float>()[j] += static_cast<float>(gr[j] * xhat[k]);
      gb.data<float>()[j] += gr[j];
    }
    mean_gxhat /= row;
    mean_gxhat_xhat /= row;
    for (int64_t j = 0; j < row; ++j) {
      const size_t k = static_cast<size_t>(j);
      gx.data<float>()[r * row + j] =
          static_cast<float>(rstd * (gxhat[k] - mean_gxhat - xhat[k] * mean_gxhat_xhat));
    }
  }
  const Shape nshape(norm.begin(), norm.end());
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) out[0] = IValue(gx);
  if (wants_grad(weight)) out[2] = IValue(reshape(gw, nshape));
  if (wants_grad(bias)) out[3] = IValue(reshape(gb, nshape));
  return out;
}

// Dropout's mask is not saved: a kept element is y = x / (1 - p), a dropped one 0.
// (An input element that is exactly 0 reads as dropped: its gradient is lost.)
ValueList dropout_grad(In in) {
  const Tensor x = in.args[0].to_tensor();
  const double p = in.args[1].to_double();
  const Tensor& y = result_tensor(in);
  bool identity = true;
  for (int64_t i = 0; identity && i < x.numel(); ++i) identity = x.value_at(i) == y.value_at(i);
  if (identity) return first_only(in, in.grads[0]);
  const float keep_scale = p >= 1 ? 0.0f : static_cast<float>(1.0 / (1.0 - p));
  return first_only(in, map3(in.grads[0], y, Tensor(), [keep_scale](float g, float yi, float) {
                      return yi != 0 ? g * keep_scale : 0.0f;
                    }));
}

ValueList mse_loss_grad(In in) {
  const Tensor diff = op("aten::sub", {in.args[0], in.args[1]});
  int64_t mode = 1;
  const IValue& reduction = in.args[2];
  if (reduction.is_string()) {
    mode = reduction.to_string() == "none" ? 0 : reduction.to_string() == "sum" ? 2 : 1;
  } else if (reduction.is_int()) {
    mode = reduction.to_int();
  }
  Tensor g = in.grads[0];
  if (mode != 0) g = op("aten::expand", {IValue(g), IValue::int_list(diff.shape())});
  const double k = mode == 1 ? 2.0 / static_cast<double>(diff.numel()) : 2.0;
  const Tensor local = scale(mul(g, diff), k);
  IValue gt;
  if (wants_grad(in.args[1])) gt = grad_for(in.args[1], neg(local));
  return {grad_for(in.args[0], local), gt, IValue()};
}

}  // namespace

void register_derivatives_nn(OpRegistry& r) {
  // These read their input (and arguments), not their result: an in-place op on the
  // result leaves their backward intact, as in PyTorch.
  const SavedData input = SavedData::args({0});
  r.set_derivative("aten::gelu", gelu_grad, input);
  r.set_derivative(
      "aten::silu",
      [](In in) {
        return first_only(
            in, map3(in.grads[0], in.args[0].to_tensor(), Tensor(), [](float g, float x, float) {
              const float s = 1.0f / (1.0f + std::exp(-x));
              return g * s * (1 + x * (1 - s));
            }));
      },
      input);
  r.set_derivative(
      "aten::leaky_relu",
      [](In in) {
        const float slope = static_cast<float>(number_of(in.args[1]));
        return first_only(in,
                          map3(in.grads[0], in.args[0].to_tensor(), Tensor(),
                               [slope](float g, float x, float) { return x > 0 ? g : g * slope; }));
      },
      input);
  r.set_derivative(
      "aten::softplus",
      [](In in) {
        const float beta = static_cast<float>(number_of(in.args[1]));
        const float threshold = static_cast<float>(number_of(in.args[2]));
        return first_only(
            in, map3(in.grads[0], in.args[0].to_tensor(), Tensor(), [=](float g, float x, float) {
              if (x * beta > threshold) return g;
              return g / (1 + std::exp(-beta * x));
            }));
      },
      input);
  r.set_derivative("aten::softmax.int", [](In in) { return softmax_grad(in, false); });
  r.set_derivative("aten::log_softmax.int", [](In in) { return softmax_grad(in, true); });
  r.set_derivative("aten::layer_norm", layer_norm_grad, SavedData::args({0, 2}));
  r.set_derivative("aten::dropout", dropout_grad);
  r.set_derivative("aten::mse_loss", mse_loss_grad, SavedData::args({0, 1}));
}

}  // namespace d2s::grad
