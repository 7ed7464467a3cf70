// Derivatives of the loss ops of core/ops/kernels_loss.cpp: l1_loss, smooth_l1_loss,
// nll_loss, cross_entropy_loss and binary_cross_entropy_with_logits (mse_loss's is in
// derivatives_nn.cpp). Class-index targets get no gradient, as in PyTorch; probability targets do.
#include <cmath>

#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"
#include "core/ops/loss_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

// The upstream gradient of a reduced loss spread over `shape`: g itself for 'none',
// g (or g / n for 'mean') broadcast otherwise.
Tensor spread(const Tensor& g, const Shape& shape, loss::Reduction mode) {
  if (mode == loss::Reduction::None) return g;
  Tensor out = op("aten::expand", {IValue(g), IValue::int_list(shape)});
  if (mode == loss::Reduction::Mean)
    out = scale(out, 1.0 / static_cast<double>(shape_numel(shape)));
  return out;
}

// l1 / smooth_l1: dL/dinput = spread(g) * f'(input - target); the target gets the
// negation.
template <typename F>
ValueList pointwise_grad(In in, size_t reduction_arg, F derivative) {
  const loss::Reduction mode = loss::reduction_of(in.args[reduction_arg]);
  const Tensor diff = op("aten::sub", {in.args[0], in.args[1]});
  const Tensor g = spread(in.grads[0], diff.shape(), mode);
  const Tensor local = map3(g, diff, Tensor(),
                            [&derivative](float gi, float d, float) { return gi * derivative(d); });
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], local);
  if (wants_grad(in.args[1])) out[1] = grad_for(in.args[1], neg(local));
  return out;
}

// dL/d(scores) of nll_loss over (log-)scores `rows x classes`, with label smoothing
// `eps` (cross_entropy only; 0 for nll_loss): the nll part puts -w_t on the target
// class, the smoothing part -w_c e/C on every class, each scaled by the reduction.
Tensor class_scores_grad(In in, const Tensor& scores, double eps) {
  const Tensor target = in.args[1].to_tensor();
  const IValue& weight = in.args[2];
  const loss::Reduction mode = loss::reduction_of(in.args[3]);
  const int64_t ignore_index = in.args[4].to_int();
  const loss::ClassLayout c = loss::class_layout(scores, target, weight);
  const Tensor w = loss::weight_of(weight);
  auto wt = [&](int64_t k) { return w.defined() ? static_cast<double>(w.data<float>()[k]) : 1.0; };
  double weight_sum = 0;
  for (int64_t i = 0; i < c.rows; ++i) {
    const int64_t t = target.data<int64_t>()[i];
    if (t != ignore_index) weight_sum += wt(t);
  }
  const Tensor g = in.grads[0].to(DType::Float32);
  Tensor out = Tensor::zeros(scores.shape());
  float* o = out.data<float>();
  for (int64_t i = 0; i < c.rows; ++i) {
    const int64_t t = target.data<int64_t>()[i];
    if (t == ignore_index) continue;
    const double gi = mode == loss::Reduction::None ? g.data<float>()[i] : g.item();
    const double nll_scale = mode == loss::Reduction::Mean ? gi / weight_sum : gi;
    o[i * c.classes + t] += static_cast<float>(-(1 - eps) * wt(t) * nll_scale);
    if (eps == 0) continue;
    const double smooth_scale = mode == loss::Reduction::Mean ? gi / weight_sum : gi;
    const double k = eps / static_cast<double>(c.classes);
    for (int64_t j = 0; j < c.classes; ++j) {
      o[i * c.classes + j] += static_cast<float>(-wt(j) * smooth_scale * k);
    }
  }
  return out;
}

ValueList nll_loss_grad(In in) {
  const Tensor input = in.args[0].to_tensor();
  return first_only(in, class_scores_grad(in, input, 0));
}

// Targets of class probabilities (kernels_loss.cpp's cross_entropy_prob), with
// t' = t (1 - e) + e / C and the row's scale s (g_i, g, or g / rows for 'mean'):
// dL/dx_c = s (p_c sum_k w_k t'_k - w_c t'_c), dL/dt_c = -s (1 - e) w_c logp_c.
ValueList cross_entropy_prob_grad(In in, const Tensor& input, const Tensor& target, double eps) {
  const loss::Reduction mode = loss::reduction_of(in.args[3]);
  const loss::ClassLayout c = loss::prob_layout(input, in.args[2]);
  const Tensor logp = loss::log_softmax_rows(input, c);
  const Tensor w = loss::weight_of(in.args[2]);
  auto wt = [&](int64_t k) { return w.defined() ? static_cast<double>(w.data<float>()[k]) : 1.0; };
  const Tensor g = in.grads[0].to(DType::Float32);
  const double k = eps / static_cast<double>(c.classes);
  Tensor gx = Tensor::empty(input.shape(), DType::Float32);
  Tensor gt = Tensor::empty(input.shape(), DType::Float32);
  for (int64_t i = 0; i < c.rows; ++i) {
    double s = mode == loss::Reduction::None ? g.data<float>()[i] : g.item();
    if (mode == loss::Reduction::Mean) s /= static_cast<double>(c.rows);
    double weighted = 0;
    for (int64_t j = 0; j < c.classes; ++j) {
      weighted += wt(j) * (target.data<float>()[i * c.classes + j] * (1 - eps) + k);
    }
    for (int64_t j = 0; j < c.classes; ++j) {
      const int64_t at = i * c.classes + j;
      const double lp = logp.data<float>()[at];
      const double t = target.data<float>()[at] * (1 - eps) + k;
      gx.data<float>()[at] = static_cast<float>(s * (std::exp(lp) * weighted - wt(j) * t));
      gt.data<float>()[at] = static_cast<float>(-s * (1 - eps) * wt(j) * lp);
    }
  }
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], gx);
  if (wants_grad(in.args[1])) out[1] = grad_for(in.args[1], gt);
  return out;
}

// cross_entropy = nll(log_softmax(x)): dL/dx = G - softmax(x) * sum_c G, per row.
ValueList cross_entropy_grad(In in) {
  const Tensor input = in.args[0].to_tensor().to(DType::Float32);
  const double eps = in.args[5].to_double();
  if (loss::is_prob_target(input, in.args[1].to_tensor())) {
    return cross_entropy_prob_grad(in, input, in.args[1].to_tensor(), eps);
  }
  const loss::ClassLayout c = loss::class_layout(input, in.args[1].to_tensor(), in.args[2]);
  const Tensor logp = loss::log_softmax_rows(input, c);
  const Tensor gl = class_scores_grad(in, logp, eps);
  Tensor gx = Tensor::empty(input.shape(), DType::Float32);
  for (int64_t i = 0; i < c.rows; ++i) {
    const float* row = gl.data<float>() + i * c.classes;
    double s = 0;
    for (int64_t k = 0; k < c.classes; ++k) s += row[k];
    for (int64_t k = 0; k < c.classes; ++k) {
      const double p = std::exp(static_cast<double>(logp.data<float>()[i * c.classes + k]));
      gx.data<float>()[i * c.classes + k] = static_cast<float>(row[k] - p * s);
    }
  }
  return first_only(in, gx);
}

// d/dx = (lw sigmoid(x) - t (lw - ... )) as PyTorch 1.13: with pw, ((pw t + 1 - t)
// sigmoid(x) - pw t); without, sigmoid(x) - t; times the weight and the reduction's g.
// d/dt = -x + (pw - 1) log(1 + e^-x).
ValueList bce_with_logits_grad(In in) {
  const Tensor x = in.args[0].to_tensor().to(DType::Float32);
  const Tensor t = kernels::tensor_arg(in.args[1]).to(DType::Float32);
  const bool has_pw = !in.args[3].is_none();
  const Tensor pw =
      has_pw ? op("aten::mul", {in.args[3], IValue(Tensor::full(x.shape(), 1.0))}) : Tensor();
  Tensor g = spread(in.grads[0], x.shape(), loss::reduction_of(in.args[4]));
  if (!in.args[2].is_none()) g = op("aten::mul", {IValue(g), in.args[2]});
  g = op("aten::mul", {IValue(g), IValue(Tensor::full(x.shape(), 1.0))}).to(DType::Float32);
  Tensor gx = Tensor::empty(x.shape(), DType::Float32);
  Tensor gt = Tensor::empty(x.shape(), DType::Float32);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const float xi = x.data<float>()[i], ti = t.data<float>()[i], gi = g.data<float>()[i];
    const float p = has_pw ? pw.data<float>()[i] : 1.0f;
    const float sig = 1.0f / (1.0f + std::exp(-xi));
    const float dx = has_pw ? (p * ti + 1 - ti) * sig - p * ti : sig - ti;
    gx.data<float>()[i] = gi * dx;
    const float m = std::max(-xi, 0.0f);
    const float softplus_neg = std::log(std::exp(-m) + std::exp(-xi - m)) + m;
    gt.data<float>()[i] = gi * (-xi + (p - 1) * softplus_neg);
  }
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], gx);
  if (wants_grad(in.args[1])) out[1] = grad_for(in.args[1], gt);
  return out;
}

}  // namespace

void register_derivatives_loss(OpRegistry& r) {
  r.set_derivative("aten::l1_loss", [](In in) {
    return pointwise_grad(in, 2, [](float d) { return d > 0 ? 1.0f : d < 0 ? -1.0f : 0.0f; });
  });
  r.set_derivative("aten::smooth_l1_loss", [](In in) {
    const float beta = static_cast<float>(in.args[3].to_double());
    return pointwise_grad(in, 2, [beta](float d) {
      if (d < -beta) return -1.0f;
      if (d > beta) return 1.0f;
      return beta == 0 ? 0.0f : d / beta;
    });
  });
  r.set_derivative("aten::nll_loss", nll_loss_grad);
  r.set_derivative("aten::cross_entropy_loss", cross_entropy_grad);
  r.set_derivative("aten::binary_cross_entropy_with_logits", bce_with_logits_grad);
  register_derivatives_ctc(r);
}

}  // namespace d2s::grad
