// Resampling: aten::upsample_nearest1d/2d, upsample_linear1d and upsample_bilinear2d
// (the .vec overloads F.interpolate calls), and aten::pixel_shuffle/pixel_unshuffle.
// Source indices and weights follow PyTorch's CPU kernel (UpSample.h): float scales,
// the nearest index floor(dst * scale) (dst >> 1 at exactly twice the size), the
// linear source (dst + 0.5) * scale - 0.5 clamped at 0 without align_corners.
#include "core/ops/kernels_resize.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ops/interpolate.h"
#include "core/ops/kernels.h"
#include "core/ops/kernels_conv.h"

namespace d2s::kernels {

namespace {

// PyTorch's compute_scales_value: 1 / the given scale factor, else in / out.
float scale_value(const IValue& scales, size_t i, int64_t in, int64_t out) {
  if (!scales.is_none()) {
    const double s = scales.items()[i].to_double();
    if (s > 0) return static_cast<float>(1.0 / s);
  }
  return static_cast<float>(in) / static_cast<float>(out);
}

ResampleAxis nearest_axis(int64_t in, int64_t out, const IValue& scales, size_t i) {
  ResampleAxis a;
  const float scale = scale_value(scales, i, in, out);
  for (int64_t o = 0; o < out; ++o) {
    int64_t src = 0;
    if (out == in) {
      src = o;
    } else if (out == 2 * in) {
      src = o >> 1;
    } else {
      src = std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * scale)), in - 1);
    }
    a.i0.push_back(src);
    a.i1.push_back(src);
    a.w0.push_back(1.0f);
    a.w1.push_back(0.0f);
  }
  return a;
}

ResampleAxis linear_axis(int64_t in, int64_t out, bool align_corners, const IValue& scales,
                         size_t i) {
  ResampleAxis a;
  float scale = 0;
  if (align_corners) {
    scale = out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
  } else {
    scale = scale_value(scales, i, in, out);
  }
  for (int64_t o = 0; o < out; ++o) {
    float real = 0;
    if (align_corners) {
      real = scale * static_cast<float>(o);
    } else {
      real = scale * (static_cast<float>(o) + 0.5f) - 0.5f;
      if (real < 0) real = 0;
    }
    const int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
    const float lambda = std::min(std::max(real - static_cast<float>(i0), 0.0f), 1.0f);
    a.i0.push_back(i0);
    a.i1.push_back(i0 + (i0 < in - 1 ? 1 : 0));
    a.w0.push_back(1.0f - lambda);
    a.w1.push_back(lambda);
  }
  return a;
}

ResampleAxis identity_row() {
  ResampleAxis a;
  a.i0 = a.i1 = {0};
  a.w0 = {1.0f};
  a.w1 = {0.0f};
  return a;
}

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

}  // namespace

std::vector<int64_t> resample_output_size(const std::string& op, const Tensor& input,
                                          size_t spatial, const IValue& sizes,
                                          const IValue& scales) {
  if (input.dim() != static_cast<int64_t>(spatial + 2)) {
    fail("Expected " + std::to_string(spatial + 2) + "D input for " + op +
         ", but got input of size: " + shape_str(input.shape()));
  }
  if (sizes.is_none() == scales.is_none()) {
    fail("Must specify exactly one of output_size and scale_factors");
  }
  const Shape in = input.shape();
  std::vector<int64_t> out;
  if (!sizes.is_none()) {
    out = sizes.to_int_list();
    if (out.size() != spatial) {
      fail("It is expected output_size equals to " + std::to_string(spatial) + ", but got size " +
           std::to_string(out.size()));
    }
  } else {
    if (scales.items().size() != spatial) {
      fail("It is expected scale_factors equals to " + std::to_string(spatial) + ", but got size " +
           std::to_string(scales.items().size()));
    }
    for (size_t i = 0; i < spatial; ++i) {
      out.push_back(
          static_cast<int64_t>(static_cast<double>(in[2 + i]) * scales.items()[i].to_double()));
    }
  }
  bool positive = true;
  for (size_t i = 0; i < spatial; ++i) positive = positive && in[2 + i] > 0 && out[i] > 0;
  if (!positive) {
    // PyTorch names the spatial dims D, H, W from the last.
    static const char* const kNames[] = {"D", "H", "W"};
    std::string ins, outs;
    for (size_t i = 0; i < spatial; ++i) {
      const std::string n = kNames[3 - spatial + i];
      ins += std::string(i ? ", " : "") + n + ": " + std::to_string(in[2 + i]);
      outs += std::string(i ? ", " : "") + n + ": " + std::to_string(out[i]);
    }
    fail("Input and output sizes should be greater than 0, but got input (" + ins + ") output (" +
         outs + ")");
  }
  if (input.dtype() != DType::Float32) {
    fail(std::string("\"") + op + "\" not implemented for '" + dtype_word(input.dtype()) + "'");
  }
  return out;
}

ResampleGeometry resample_geometry(const std::string& op, const ValueList& args) {
  const int spatial = op.find("1d") != std::string::npos ? 1 : 2;
  ResampleGeometry g;
  g.linear = op.find("linear") != std::string::npos;
  const Tensor input = tensor_arg(args[0]);
  const IValue& sizes = args[1];
  const IValue& scales = g.linear ? args[3] : args[2];
  const bool align_corners = g.linear && args[2].to_bool();
  const Shape in = input.shape();
  const std::vector<int64_t> out =
      resample_output_size(op, input, static_cast<size_t>(spatial), sizes, scales);
  g.planes = in[0] * in[1];
  g.out_shape = {in[0], in[1]};
  for (int64_t o : out) g.out_shape.push_back(o);
  auto axis = [&](int64_t n_in, int64_t n_out, size_t i) {
    return g.linear ? linear_axis(n_in, n_out, align_corners, scales, i)
                    : nearest_axis(n_in, n_out, scales, i);
  };
  if (spatial == 2) {
    g.h = in[2];
    g.oh = out[0];
    g.y = axis(g.h, g.oh, 0);
  } else {
    g.y = identity_row();
  }
  g.w = in.back();
  g.ow = out.back();
  g.x = axis(g.w, g.ow, static_cast<size_t>(spatial - 1));
  return g;
}

Tensor resample_forward(const Tensor& input, const ResampleGeometry& g) {
  Tensor out = Tensor::empty(g.out_shape, DType::Float32);
  const Tensor& in = input;
  const float* src = in.data<float>();
  float* dst = out.data<float>();
  for (int64_t p = 0; p < g.planes; ++p) {
    const float* plane = src + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      const float* r0 = plane + g.y.i0[oy] * g.w;
      const float* r1 = plane + g.y.i1[oy] * g.w;
      const float wy0 = g.y.w0[oy], wy1 = g.y.w1[oy];
      float* o = dst + (p * g.oh + oy) * g.ow;
      if (!g.linear) {
        for (int64_t ox = 0; ox < g.ow; ++ox) o[ox] = r0[g.x.i0[ox]];
        continue;
      }
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const int64_t x0 = g.x.i0[ox], x1 = g.x.i1[ox];
        const float wx0 = g.x.w0[ox], wx1 = g.x.w1[ox];
        // PyTorch's order: the inner (width) interpolation of each row, then the rows.
        const float t0 = r0[x0] * wx0 + r0[x1] * wx1;
        if (wy1 == 0.0f) {  // 1-d, or a row at the bottom edge
          o[ox] = t0 * wy0;
          continue;
        }
        const float t1 = r1[x0] * wx0 + r1[x1] * wx1;
        o[ox] = t0 * wy0 + t1 * wy1;
      }
    }
  }
  return out;
}

Tensor resample_backward(const Tensor& grad, const ResampleGeometry& g, const Shape& input_shape) {
  Tensor out = Tensor::zeros(input_shape);
  const Tensor gr = grad.to(DType::Float32);
  const float* pg = gr.data<float>();
  float* dst = out.data<float>();
  for (int64_t p = 0; p < g.planes; ++p) {
    float* plane = dst + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      float* r0 = plane + g.y.i0[oy] * g.w;
      float* r1 = plane + g.y.i1[oy] * g.w;
      const float wy0 = g.y.w0[oy], wy1 = g.y.w1[oy];
      const float* gi = pg + (p * g.oh + oy) * g.ow;
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const int64_t x0 = g.x.i0[ox], x1 = g.x.i1[ox];
        const float wx0 = g.x.w0[ox], wx1 = g.x.w1[ox];
        const float v = gi[ox];
        r0[x0] += v * wy0 * wx0;
        if (wx1 != 0.0f) r0[x1] += v * wy0 * wx1;
        if (wy1 != 0.0f) {
          r1[x0] += v * wy1 * wx0;
          if (wx1 != 0.0f) r1[x1] += v * wy1 * wx1;
        }
      }
    }
  }
  return out;
}

Tensor pixel_shuffle(const Tensor& input, int64_t factor, bool up) {
  const std::string name = up ? "pixel_shuffle" : "pixel_unshuffle";
  const std::string what = up ? "upscale_factor" : "downscale_factor";
  if (input.dim() < 3) {
    fail(name + " expects input to have at least 3 dimensions, but got input with " +
         std::to_string(input.dim()) + " dimension(s)");
  }
  if (factor <= 0)
    fail(name + " expects a positive " + what + ", but got " + std::to_string(factor));
  Shape s = input.shape();
  const size_t k = s.size();
  const int64_t c = s[k - 3], h = s[k - 2], w = s[k - 1];
  if (up && c % (factor * factor) != 0) {
    fail(name + " expects its input's 'channel' dimension to be divisible by the square of " +
         what + ", but input.size(-3)=" + std::to_string(c) + " is not divisible by " +
         std::to_string(factor * factor));
  }
  if (!up && h % factor != 0) {
    fail(name + " expects height to be divisible by " + what + ", but input.size(-2)=" +
         std::to_string(h) + " is not divisible by " + std::to_string(factor));
  }
  if (!up && w % factor != 0) {
    fail(name + " expects width to be divisible by " + what + ", but input.size(-1)=" +
         std::to_string(w) + " is not divisible by " + std::to_string(factor));
  }
  // The shuffled layout: channel (oc, i, j) of the small image is pixel (y * r + i,
  // x * r + j) of channel oc of the large one.
  const int64_t r = factor;
  const int64_t oc = up ? c / (r * r) : c;                 // channels of the large image
  const int64_t sh = up ? h : h / r, sw = up ? w : w / r;  // size of the small image
  Shape out_shape = s;
  if (up) {
    out_shape[k - 3] = oc;
    out_shape[k - 2] = h * r;
    out_shape[k - 1] = w * r;
  } else {
    out_shape[k - 3] = c * r * r;
    out_shape[k - 2] = sh;
    out_shape[k - 1] = sw;
  }
  Tensor out = Tensor::empty(out_shape, input.dtype());
  const Tensor& in = input;
  const int64_t esize = static_cast<int64_t>(dtype_size(input.dtype()));
  const char* src = in.data<char>();
  char* dst = out.data<char>();
  const int64_t batch = input.numel() / std::max<int64_t>(c * h * w, 1);
  const int64_t per = oc * r * r * sh * sw;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t ch = 0; ch < oc; ++ch) {
      for (int64_t i = 0; i < r; ++i) {
        for (int64_t j = 0; j < r; ++j) {
          for (int64_t y = 0; y < sh; ++y) {
            for (int64_t x = 0; x < sw; ++x) {
              const int64_t small = b * per + (((ch * r + i) * r + j) * sh + y) * sw + x;
              const int64_t large = b * per + (ch * sh * r + y * r + i) * sw * r + x * r + j;
              const int64_t from = up ? small : large, to = up ? large : small;
              std::copy_n(src + from * esize, esize, dst + to * esize);
            }
          }
        }
      }
    }
  }
  return out;
}

InterpolatePlan interpolate_plan(const ValueList& a) {
  const Tensor x = tensor_arg(a[0]);
  InterpolateOp op =
      interpolate_op(x.dim(), spatial_repr(x.shape()), a[1], a[2], a[3], a[4], a[5], a[6]);
  InterpolatePlan plan;
  plan.op = op.op.substr(6);  // without "aten::"
  plan.args = {a[0]};
  for (IValue& v : op.args) plan.args.push_back(std::move(v));
  return plan;
}

static bool resamples_with_taps(const std::string& op) {
  return op == "upsample_bicubic2d" || op == "upsample_trilinear3d";
}

Tensor interpolate_forward(const InterpolatePlan& plan) {
  const Tensor x = tensor_arg(plan.args[0]);
  if (plan.op.rfind("adaptive_avg_pool", 0) == 0) {
    return pool_forward(x, pool_geometry(plan.op, plan.args), nullptr);
  }
  if (resamples_with_taps(plan.op)) return tap_forward(x, tap_geometry(plan.op, plan.args));
  return resample_forward(x, resample_geometry(plan.op, plan.args));
}

Tensor interpolate_backward(const Tensor& grad, const InterpolatePlan& plan) {
  const Tensor x = tensor_arg(plan.args[0]);
  if (plan.op.rfind("adaptive_avg_pool", 0) == 0) {
    return pool_backward(grad, x, pool_geometry(plan.op, plan.args));
  }
  if (resamples_with_taps(plan.op)) return tap_backward(grad, tap_geometry(plan.op, plan.args));
  return resample_backward(grad, resample_geometry(plan.op, plan.args), x.shape());
}

void register_resize(OpRegistry& r) {
  using A = const ValueList&;
  auto resample = [](const char* op) {
    return [op](OpContext&, A a) {
      return tv(resample_forward(tensor_arg(a[0]), resample_geometry(op, a)));
    };
  };
  r.add(
      "aten::upsample_nearest1d.vec(Tensor input, int[]? output_size, float[]? scale_factors) "
      "-> Tensor",
      resample("upsample_nearest1d"));
  r.add(
      "aten::upsample_nearest2d.vec(Tensor input, int[]? output_size, float[]? scale_factors) "
      "-> Tensor",
      resample("upsample_nearest2d"));
  r.add(
      "aten::upsample_linear1d.vec(Tensor input, int[]? output_size, bool align_corners, "
      "float[]? scale_factors) -> Tensor",
      resample("upsample_linear1d"));
  r.add(
      "aten::upsample_bilinear2d.vec(Tensor input, int[]? output_size, bool align_corners, "
      "float[]? scale_factors) -> Tensor",
      resample("upsample_bilinear2d"));
  // TorchScript's builtin for F.interpolate: the parse route records it where the
  // input's rank (and so the op) is known only when the graph runs.
  r.add(
      "aten::__interpolate(Tensor input, Any size=None, Any scale_factor=None, "
      "str mode=\"nearest\", bool? align_corners=None, bool? recompute_scale_factor=None, "
      "bool antialias=False) -> Tensor",
      [](OpContext&, A a) { return tv(interpolate_forward(interpolate_plan(a))); });
  r.add("aten::pixel_shuffle(Tensor self, int upscale_factor) -> Tensor",
        [](OpContext&, A a) { return tv(pixel_shuffle(tensor_arg(a[0]), a[1].to_int(), true)); });
  r.add("aten::pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor",
        [](OpContext&, A a) { return tv(pixel_shuffle(tensor_arg(a[0]), a[1].to_int(), false)); });
}

}  // namespace d2s::kernels
