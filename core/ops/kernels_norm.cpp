// Normalisation and gating layers beyond layer_norm (kernels_nn.cpp): batch_norm (with
// its running-statistics update, a write into two arguments), group_norm, prelu, glu
// and feature_dropout (Dropout2d's channel mask), float32 only, with PyTorch 1.13's
// formulas and messages. Their derivatives are in derivatives_norm.cpp.
#include <cmath>

#include "core/ops/kernels.h"
#include "core/ops/norm_util.h"
#include "core/tensor/random.h"

namespace d2s::kernels {

namespace {

void require_float(const Tensor& t, const char* kernel) {
  if (t.dtype() != DType::Float32) {
    fail(std::string("\"") + kernel + "\" not implemented for '" + dtype_word(t.dtype()) + "'");
  }
}

// A per-channel tensor argument (weight, bias, running stats) of `channels` elements,
// or undefined for None.
Tensor channel_arg(const IValue& v, int64_t channels, const char* what) {
  if (v.is_none()) return Tensor();
  const Tensor t = tensor_arg(v);
  if (t.numel() != channels) {
    fail(std::string(what) + " should contain " + std::to_string(channels) + " elements not " +
         std::to_string(t.numel()));
  }
  return t;
}

// batch_norm over [N, C, *]: per channel, the batch's statistics in training (biased
// variance to normalise, the unbiased one for the running update) or the running ones.
Tensor batch_norm(const Tensor& x, const IValue& weight, const IValue& bias,
                  const IValue& running_mean, const IValue& running_var, bool training,
                  double momentum, double eps) {
  require_float(x, "batch_norm");
  if (x.dim() < 2) {
    fail("running_mean should contain " + std::to_string(x.dim() ? x.shape()[0] : 1) +
         " elements not 0");
  }
  const norm::ChannelLayout c = norm::channel_layout(x);
  const Tensor w = channel_arg(weight, c.channels, "weight");
  const Tensor b = channel_arg(bias, c.channels, "bias");
  Tensor rm = channel_arg(running_mean, c.channels, "running_mean");
  Tensor rv = channel_arg(running_var, c.channels, "running_var");
  if (!training && (!rm.defined() || !rv.defined())) {
    fail("running_mean and running_var must be defined in evaluation mode");
  }
  for (const Tensor* t : {&rm, &rv}) {
    if (t->defined()) require_float(*t, "batch_norm");
  }
  const int64_t count = c.batch * c.inner;
  if (training && count <= 1) {
    fail(std::string("ValueError: Expected more than 1 value per channel when training, got ") +
         "input size torch.Size(" + shape_str(x.shape()) + ")");
  }
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  const float* p = x.data<float>();
  float* o = out.data<float>();
  for (int64_t ch = 0; ch < c.channels; ++ch) {
    double mean = 0, invstd = 0;
    if (training) {
      const norm::Moments m = norm::channel_moments(p, c, ch);
      mean = m.mean;
      invstd = 1.0 / std::sqrt(m.var_sum / static_cast<double>(count) + eps);
      if (rm.defined()) {
        float& r = rm.data<float>()[ch];
        r = static_cast<float>(momentum * mean + (1 - momentum) * r);
      }
      if (rv.defined()) {
        float& r = rv.data<float>()[ch];
        const double unbiased = m.var_sum / static_cast<double>(count - 1);
        r = static_cast<float>(momentum * unbiased + (1 - momentum) * r);
      }
    } else {
      mean = rm.data<float>()[ch];
      invstd = 1.0 / std::sqrt(static_cast<double>(rv.data<float>()[ch]) + eps);
    }
    const double scale = invstd * (w.defined() ? w.value_at(ch) : 1.0);
    const double shift = (b.defined() ? b.value_at(ch) : 0.0) - mean * scale;
    const float fs = static_cast<float>(scale), fb = static_cast<float>(shift);
    for (int64_t n = 0; n < c.batch; ++n) {
      const int64_t base = (n * c.channels + ch) * c.inner;
      for (int64_t i = 0; i < c.inner; ++i) o[base + i] = p[base + i] * fs + fb;
    }
  }
  return out;
}

// group_norm over [N, C, *]: each sample's C channels in `groups` groups, normalised
// by the group's biased statistics, then the per-channel affine.
Tensor group_norm(const Tensor& x, int64_t groups, const IValue& weight, const IValue& bias,
                  double eps) {
  require_float(x, "GroupNormKernelImpl");
  if (x.dim() < 2) {
    fail("Expected at least 2 dimensions for input tensor but received " + std::to_string(x.dim()));
  }
  const norm::ChannelLayout c = norm::channel_layout(x);
  if (groups <= 0 || c.channels % groups != 0) {
    fail(
        "Expected number of channels in input to be divisible by num_groups, but got input "
        "of shape " +
        shape_str(x.shape()) + " and num_groups=" + std::to_string(groups));
  }
  const Tensor w = channel_arg(weight, c.channels, "weight");
  const Tensor b = channel_arg(bias, c.channels, "bias");
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  const float* p = x.data<float>();
  float* o = out.data<float>();
  const int64_t per_group = c.channels / groups * c.inner;
  for (int64_t n = 0; n < c.batch; ++n) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t base = (n * groups + g) * per_group;
      const norm::Moments m = norm::moments(p + base, per_group);
      const double invstd = 1.0 / std::sqrt(m.var_sum / static_cast<double>(per_group) + eps);
      for (int64_t k = 0; k < per_group; ++k) {
        const int64_t ch = g * (c.channels / groups) + k / c.inner;
        float y = static_cast<float>((p[base + k] - m.mean) * invstd);
        if (w.defined()) y *= w.data<float>()[ch];
        if (b.defined()) y += b.data<float>()[ch];
        o[base + k] = y;
      }
    }
  }
  return out;
}

// prelu: x where x > 0, else w x, with one weight or one per channel (dim 1).
Tensor prelu(const Tensor& x, const Tensor& weight) {
  require_float(x, "prelu_cpu");
  const int64_t channels = x.dim() >= 2 ? x.shape()[1] : 1;
  if (weight.numel() != 1 && weight.numel() != channels) {
    fail("Mismatch of parameter numbers and input channel size. Found parameter numbers = " +
         std::to_string(weight.numel()) + " and channel size = " + std::to_string(channels) + ".");
  }
  if (weight.dim() > 1) {
    fail("prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = " +
         std::to_string(weight.dim()));
  }
  const Tensor w = as_dtype(weight, DType::Float32);
  const int64_t inner =
      x.dim() >= 2 ? shape_numel(Shape(x.shape().begin() + 2, x.shape().end())) : 1;
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  const float* p = x.data<float>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t ch = w.numel() == 1 ? 0 : (i / inner) % channels;
    o[i] = p[i] > 0 ? p[i] : w.data<float>()[ch] * p[i];
  }
  return out;
}

// glu: the first half of `dim` times the sigmoid of the second half.
Tensor glu(const Tensor& x, int64_t dim_arg) {
  require_float(x, "glu_cpu");
  if (x.dim() == 0) fail("glu does not support scalars because halving size must be even");
  const int64_t dim = wrap_dim(dim_arg, x.dim());
  const int64_t n = x.shape()[dim];
  if (n % 2 != 0) {
    fail("Halving dimension must be even, but dimension " + std::to_string(dim) + " is size " +
         std::to_string(n));
  }
  Shape shape = x.shape();
  shape[dim] = n / 2;
  const int64_t inner = shape_numel(Shape(x.shape().begin() + dim + 1, x.shape().end()));
  const int64_t outer = shape_numel(Shape(x.shape().begin(), x.shape().begin() + dim));
  Tensor out = Tensor::empty(shape, DType::Float32);
  const float* p = x.data<float>();
  float* o = out.data<float>();
  const int64_t half = n / 2 * inner;
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t k = 0; k < half; ++k) {
      const float first = p[a * n * inner + k], second = p[a * n * inner + half + k];
      o[a * half + k] = first * (1.0f / (1.0f + std::exp(-second)));
    }
  }
  return out;
}

// Dropout2d's feature dropout: one draw per (sample, channel) of [N, C, *], as
// docs/random.md says, the whole channel kept (scaled by 1 / (1 - p)) or zeroed.
Tensor feature_dropout(OpContext& ctx, const Tensor& x, double p, bool train) {
  if (p < 0 || p > 1) {
    fail("dropout probability has to be between 0 and 1, but got " + IValue(p).repr());
  }
  if (!train || p == 0) return x.clone();
  require_float(x, "bernoulli_tensor_cpu_p_");
  if (x.dim() < 2) {
    fail("Feature dropout requires at least 2 dimensions in the input");
  }
  if (!ctx.generator) fail("feature_dropout(): no random generator was given to this call");
  Generator& g = *ctx.generator;
  const norm::ChannelLayout c = norm::channel_layout(x);
  const float scale = p == 1 ? 0.0f : 1.0f / static_cast<float>(1.0 - p);
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  const float* in = x.data<float>();
  float* o = out.data<float>();
  for (int64_t f = 0; f < c.batch * c.channels; ++f) {
    const bool keep = static_cast<double>(g.uniform()) < 1.0 - p;
    const float s = keep ? scale : 0.0f;
    for (int64_t i = 0; i < c.inner; ++i) o[f * c.inner + i] = in[f * c.inner + i] * s;
  }
  return out;
}

}  // namespace

void register_norm(OpRegistry& r) {
  using A = const ValueList&;
  // TorchScript's schema leaves the running statistics unmarked although the op writes
  // them; d2s marks them (a!) and (b!), so that dead-code elimination, the trace and the
  // autograd see the update as the write it is.
  r.add(
      "aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!)? running_mean, "
      "Tensor(b!)? running_var, bool training, float momentum, float eps, bool cudnn_enabled) "
      "-> Tensor",
      [](OpContext&, A a) {
        return IValue(batch_norm(tensor_arg(a[0]), a[1], a[2], a[3], a[4], a[5].to_bool(),
                                 a[6].to_double(), a[7].to_double()));
      });
  r.add(
      "aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enabled=True) -> Tensor",
      [](OpContext&, A a) {
        return IValue(group_norm(tensor_arg(a[0]), a[1].to_int(), a[2], a[3], a[4].to_double()));
      });
  r.add("aten::prelu(Tensor self, Tensor weight) -> Tensor",
        [](OpContext&, A a) { return IValue(prelu(tensor_arg(a[0]), tensor_arg(a[1]))); });
  r.add(
      "aten::glu(Tensor self, int dim=-1) -> Tensor",
      [](OpContext&, A a) { return IValue(glu(tensor_arg(a[0]), a[1].to_int())); }, OpTag::NoOnnx);
  r.add(
      "aten::feature_dropout(Tensor input, float p, bool train) -> Tensor",
      [](OpContext& c, A a) {
        return IValue(feature_dropout(c, tensor_arg(a[0]), a[1].to_double(), a[2].to_bool()));
      },
      OpTag::Random);
}

}  // namespace d2s::kernels
