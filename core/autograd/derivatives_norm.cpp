// Derivatives of the normalisation and gating ops of core/ops/kernels_norm.cpp: batch_norm
// (through the batch statistics in training, through the running ones in eval; the
// running statistics themselves get no gradient, as in PyTorch), group_norm, prelu,
// glu and feature_dropout.
#include <cmath>
#include <vector>

#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"
#include "core/ops/norm_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

Tensor float_of(const IValue& v) {
  return v.is_none() ? Tensor() : tensor_of(v).to(DType::Float32);
}

// With x̂ = (x - mean) invstd and y = x̂ w + b over a channel's `count` elements:
// dx = invstd (ĝ - mean(ĝ) - x̂ mean(ĝ x̂)), ĝ = g w, when the statistics come from the
// batch (training), else dx = invstd ĝ; dw = sum(g x̂), db = sum(g).
ValueList batch_norm_grad(In in) {
  const Tensor x = in.args[0].to_tensor().to(DType::Float32);
  const Tensor w = float_of(in.args[1]);
  const bool training = in.args[5].to_bool();
  const double eps = in.args[7].to_double();
  const Tensor g = in.grads[0].to(DType::Float32);
  const norm::ChannelLayout c = norm::channel_layout(x);
  const int64_t count = c.batch * c.inner;
  Tensor gx = Tensor::zeros(x.shape());
  Tensor gw = Tensor::zeros({c.channels});
  Tensor gb = Tensor::zeros({c.channels});
  const float* px = x.data<float>();
  const float* pg = g.data<float>();
  for (int64_t ch = 0; ch < c.channels; ++ch) {
    double mean = 0, invstd = 0;
    if (training) {
      const norm::Moments m = norm::channel_moments(px, c, ch);
      mean = m.mean;
      invstd = 1.0 / std::sqrt(m.var_sum / static_cast<double>(count) + eps);
    } else {
      mean = tensor_of(in.args[3]).value_at(ch);
      invstd = 1.0 / std::sqrt(tensor_of(in.args[4]).value_at(ch) + eps);
    }
    const double wc = w.defined() ? w.value_at(ch) : 1.0;
    double sum_g = 0, sum_g_xhat = 0;
    for (int64_t n = 0; n < c.batch; ++n) {
      const int64_t base = (n * c.channels + ch) * c.inner;
      for (int64_t i = 0; i < c.inner; ++i) {
        sum_g += pg[base + i];
        sum_g_xhat += pg[base + i] * (px[base + i] - mean) * invstd;
      }
    }
    gw.data<float>()[ch] = static_cast<float>(sum_g_xhat);
    gb.data<float>()[ch] = static_cast<float>(sum_g);
    const double mean_g = count ? sum_g / static_cast<double>(count) : 0;
    const double mean_g_xhat = count ? sum_g_xhat / static_cast<double>(count) : 0;
    for (int64_t n = 0; n < c.batch; ++n) {
      const int64_t base = (n * c.channels + ch) * c.inner;
      for (int64_t i = 0; i < c.inner; ++i) {
        const double xhat = (px[base + i] - mean) * invstd;
        const double d = training ? pg[base + i] - mean_g - xhat * mean_g_xhat : pg[base + i];
        gx.data<float>()[base + i] = static_cast<float>(d * wc * invstd);
      }
    }
  }
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) out[0] = IValue(gx);
  if (wants_grad(in.args[1])) out[1] = IValue(reshape(gw, tensor_of(in.args[1]).shape()));
  if (wants_grad(in.args[2])) out[2] = IValue(reshape(gb, tensor_of(in.args[2]).shape()));
  return out;
}

ValueList group_norm_grad(In in) {
  const Tensor x = in.args[0].to_tensor().to(DType::Float32);
  const int64_t groups = in.args[1].to_int();
  const Tensor w = float_of(in.args[2]);
  const double eps = in.args[4].to_double();
  const Tensor g = in.grads[0].to(DType::Float32);
  const norm::ChannelLayout c = norm::channel_layout(x);
  const int64_t per_channel_group = c.channels / groups;
  const int64_t per_group = per_channel_group * c.inner;
  Tensor gx = Tensor::zeros(x.shape());
  std::vector<double> gw(static_cast<size_t>(c.channels)), gb(static_cast<size_t>(c.channels));
  const float* px = x.data<float>();
  const float* pg = g.data<float>();
  std::vector<double> xhat(static_cast<size_t>(per_group)), ghat(static_cast<size_t>(per_group));
  for (int64_t n = 0; n < c.batch; ++n) {
    for (int64_t grp = 0; grp < groups; ++grp) {
      const int64_t base = (n * groups + grp) * per_group;
      const norm::Moments m = norm::moments(px + base, per_group);
      const double invstd = 1.0 / std::sqrt(m.var_sum / static_cast<double>(per_group) + eps);
      double mean_ghat = 0, mean_ghat_xhat = 0;
      for (int64_t k = 0; k < per_group; ++k) {
        const size_t i = static_cast<size_t>(k);
        const int64_t ch = grp * per_channel_group + k / c.inner;
        xhat[i] = (px[base + k] - m.mean) * invstd;
        ghat[i] = pg[base + k] * (w.defined() ? w.data<float>()[ch] : 1.0f);
        mean_ghat += ghat[i];
        mean_ghat_xhat += ghat[i] * xhat[i];
        gw[static_cast<size_t>(ch)] += pg[base + k] * xhat[i];
        gb[static_cast<size_t>(ch)] += pg[base + k];
      }
      mean_ghat /= static_cast<double>(per_group);
      mean_ghat_xhat /= static_cast<double>(per_group);
      for (int64_t k = 0; k < per_group; ++k) {
        const size_t i = static_cast<size_t>(k);
        gx.data<float>()[base + k] =
            static_cast<float>(invstd * (ghat[i] - mean_ghat - xhat[i] * mean_ghat_xhat));
      }
    }
  }
  auto as_tensor = [&](const std::vector<double>& v, const IValue& like) {
    Tensor t = Tensor::empty({c.channels}, DType::Float32);
    for (int64_t ch = 0; ch < c.channels; ++ch)
      t.data<float>()[ch] = static_cast<float>(v[static_cast<size_t>(ch)]);
    return reshape(t, tensor_of(like).shape());
  };
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) out[0] = IValue(gx);
  if (wants_grad(in.args[2])) out[2] = IValue(as_tensor(gw, in.args[2]));
  if (wants_grad(in.args[3])) out[3] = IValue(as_tensor(gb, in.args[3]));
  return out;
}

// prelu: dx = g where x > 0, else w g; dw = the sum of g x where x <= 0, per channel
// (or over everything for one weight).
ValueList prelu_grad(In in) {
  const Tensor x = in.args[0].to_tensor().to(DType::Float32);
  const Tensor w = tensor_of(in.args[1]).to(DType::Float32);
  const Tensor g = in.grads[0].to(DType::Float32);
  const int64_t channels = x.dim() >= 2 ? x.shape()[1] : 1;
  const int64_t inner =
      x.dim() >= 2 ? shape_numel(Shape(x.shape().begin() + 2, x.shape().end())) : 1;
  Tensor gx = Tensor::empty(x.shape(), DType::Float32);
  std::vector<double> gw(static_cast<size_t>(w.numel()));
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t ch = w.numel() == 1 ? 0 : (i / inner) % channels;
    const float xi = x.data<float>()[i], gi = g.data<float>()[i];
    gx.data<float>()[i] = xi > 0 ? gi : w.data<float>()[ch] * gi;
    if (xi <= 0) gw[static_cast<size_t>(ch)] += static_cast<double>(gi) * xi;
  }
  Tensor gwt = Tensor::empty(w.shape(), DType::Float32);
  for (int64_t k = 0; k < w.numel(); ++k)
    gwt.data<float>()[k] = static_cast<float>(gw[static_cast<size_t>(k)]);
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) out[0] = IValue(gx);
  if (wants_grad(in.args[1])) out[1] = IValue(gwt);
  return out;
}

// glu: y = a σ(b) with [a, b] the halves of dim: da = g σ(b), db = g a σ(b) (1 - σ(b)).
ValueList glu_grad(In in) {
  const Tensor x = in.args[0].to_tensor().to(DType::Float32);
  const int64_t dim = kernels::wrap_dim(in.args[1].to_int(), x.dim());
  const Tensor g = in.grads[0].to(DType::Float32);
  const int64_t n = x.shape()[dim];
  const int64_t inner = shape_numel(Shape(x.shape().begin() + dim + 1, x.shape().end()));
  const int64_t outer = shape_numel(Shape(x.shape().begin(), x.shape().begin() + dim));
  const int64_t half = n / 2 * inner;
  Tensor gx = Tensor::empty(x.shape(), DType::Float32);
  const float* p = x.data<float>();
  float* o = gx.data<float>();
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t k = 0; k < half; ++k) {
      const float first = p[a * n * inner + k], second = p[a * n * inner + half + k];
      const float s = 1.0f / (1.0f + std::exp(-second));
      const float gi = g.data<float>()[a * half + k];
      o[a * n * inner + k] = gi * s;
      o[a * n * inner + half + k] = gi * first * s * (1 - s);
    }
  }
  return first_only(in, gx);
}

// feature_dropout: the mask is not saved; a channel of the result that is all zero
// reads as dropped (as dropout_grad reads a zero element; a channel of zeros that was
// kept loses its gradient), a kept one passes g / (1 - p).
ValueList feature_dropout_grad(In in) {
  const Tensor x = in.args[0].to_tensor();
  const double p = in.args[1].to_double();
  if (!in.args[2].to_bool() || p == 0) return first_only(in, in.grads[0]);
  const Tensor y = result_tensor(in).to(DType::Float32);
  const Tensor g = in.grads[0].to(DType::Float32);
  const norm::ChannelLayout c = norm::channel_layout(x);
  const float keep_scale = p >= 1 ? 0.0f : static_cast<float>(1.0 / (1.0 - p));
  Tensor gx = Tensor::empty(x.shape(), DType::Float32);
  for (int64_t f = 0; f < c.batch * c.channels; ++f) {
    bool kept = false;
    for (int64_t i = 0; !kept && i < c.inner; ++i) kept = y.data<float>()[f * c.inner + i] != 0;
    for (int64_t i = 0; i < c.inner; ++i) {
      gx.data<float>()[f * c.inner + i] = kept ? g.data<float>()[f * c.inner + i] * keep_scale : 0;
    }
  }
  return first_only(in, gx);
}

}  // namespace

void register_derivatives_norm(OpRegistry& r) {
  // batch_norm reads its input, weight and (in eval) the running statistics; the
  // autograd keeps a copy of those it writes.
  r.set_derivative("aten::batch_norm", batch_norm_grad, SavedData::args({0, 1, 3, 4}));
  r.set_derivative("aten::group_norm", group_norm_grad, SavedData::args({0, 2}));
  r.set_derivative("aten::prelu", prelu_grad, SavedData::args({0, 1}));
  r.set_derivative("aten::glu", glu_grad, SavedData::args({0}));
  r.set_derivative("aten::feature_dropout", feature_dropout_grad, SavedData::args({0}, true));
}

}  // namespace d2s::grad
