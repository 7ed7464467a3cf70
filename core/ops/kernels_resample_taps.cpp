// aten::upsample_bicubic2d.vec and aten::upsample_trilinear3d.vec: separable resampling
// where each output index reads `taps` input indices per spatial dim (4 for bicubic, 2
// for trilinear), as PyTorch 1.13's CPU kernel (UpSampleKernel.cpp, cpu_upsample_generic)
// computes it: float source indices (area_pixel_compute_source_index, not clamped at 0
// for cubic), indices clamped to the border, Keys' cubic convolution with A = -0.75, and
// the sum taken innermost dim first, then each outer dim's taps in order. The backward
// lays each output's gradient on the same taps with the same weights.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/ops/kernels.h"
#include "core/ops/kernels_resize.h"

namespace d2s::kernels {

namespace {

// PyTorch's area_pixel_compute_scale: (in - 1) / (out - 1) with align_corners, else
// 1 / the given scale factor, or in / out.
float axis_scale(int64_t in, int64_t out, bool align_corners, const IValue& scales, size_t i) {
  if (align_corners) {
    return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
  }
  if (!scales.is_none()) {
    const double s = scales.items()[i].to_double();
    if (s > 0) return static_cast<float>(1.0 / s);
  }
  return static_cast<float>(in) / static_cast<float>(out);
}

// Keys' cubic convolution kernel, PyTorch's cubic_convolution1 (|x| <= 1) and
// cubic_convolution2 (1 < |x| < 2).
float cubic1(float x, float a) {
  return ((a + 2) * x - (a + 3)) * x * x + 1;
}
float cubic2(float x, float a) {
  return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}

TapAxis cubic_axis(int64_t in, int64_t out, bool align_corners, const IValue& scales, size_t i) {
  constexpr float kA = -0.75f;
  TapAxis a;
  a.taps = 4;
  const float scale = axis_scale(in, out, align_corners, scales, i);
  for (int64_t o = 0; o < out; ++o) {
    const float real = align_corners ? scale * static_cast<float>(o)
                                     : scale * (static_cast<float>(o) + 0.5f) - 0.5f;
    const int64_t first = static_cast<int64_t>(std::floor(real));
    const float t = real - static_cast<float>(first);
    const float x2 = 1.0f - t;  // as PyTorch's get_cubic_upsample_coefficients rounds
    const float w[4] = {cubic2(t + 1.0f, kA), cubic1(t, kA), cubic1(x2, kA), cubic2(x2 + 1.0f, kA)};
    for (int64_t j = 0; j < 4; ++j) {
      a.index.push_back(std::clamp<int64_t>(first - 1 + j, 0, in - 1));
      a.weight.push_back(w[j]);
    }
  }
  return a;
}

TapAxis linear_taps(int64_t in, int64_t out, bool align_corners, const IValue& scales, size_t i) {
  TapAxis a;
  a.taps = 2;
  const float scale = axis_scale(in, out, align_corners, scales, i);
  for (int64_t o = 0; o < out; ++o) {
    float real = align_corners ? scale * static_cast<float>(o)
                               : scale * (static_cast<float>(o) + 0.5f) - 0.5f;
    if (real < 0) real = 0;
    const int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
    const float lambda = std::min(std::max(real - static_cast<float>(i0), 0.0f), 1.0f);
    a.index.push_back(i0);
    a.index.push_back(i0 + (i0 < in - 1 ? 1 : 0));
    a.weight.push_back(1.0f - lambda);
    a.weight.push_back(lambda);
  }
  return a;
}

// Visits every output element of one plane with its index per spatial dim.
template <typename F>
void for_each_output(const Shape& out, F f) {
  const size_t n = out.size();
  std::vector<int64_t> idx(n, 0);
  int64_t total = 1;
  for (int64_t s : out) total *= s;
  for (int64_t e = 0; e < total; ++e) {
    f(e, idx);
    for (size_t d = n; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
}

// PyTorch's Interpolate<n>::eval: the weighted sum over dim d's taps of the sums over
// the inner dims, the first tap's term first.
float eval(const float* plane, const std::vector<TapAxis>& axes,
           const std::vector<int64_t>& strides, const std::vector<int64_t>& at, size_t d,
           int64_t base) {
  const TapAxis& a = axes[d];
  const size_t first = static_cast<size_t>(at[d] * a.taps);
  float out = 0;
  for (int64_t j = 0; j < a.taps; ++j) {
    const int64_t offset = base + a.index[first + static_cast<size_t>(j)] * strides[d];
    const float t =
        d + 1 == axes.size() ? plane[offset] : eval(plane, axes, strides, at, d + 1, offset);
    out = j == 0 ? t * a.weight[first] : out + t * a.weight[first + static_cast<size_t>(j)];
  }
  return out;
}

void scatter(float* plane, const std::vector<TapAxis>& axes, const std::vector<int64_t>& strides,
             const std::vector<int64_t>& at, size_t d, int64_t base, float g) {
  const TapAxis& a = axes[d];
  const size_t first = static_cast<size_t>(at[d] * a.taps);
  for (int64_t j = 0; j < a.taps; ++j) {
    const int64_t offset = base + a.index[first + static_cast<size_t>(j)] * strides[d];
    const float w = g * a.weight[first + static_cast<size_t>(j)];
    if (d + 1 == axes.size()) {
      plane[offset] += w;
    } else {
      scatter(plane, axes, strides, at, d + 1, offset, w);
    }
  }
}

std::vector<int64_t> plane_strides(const Shape& in, size_t spatial) {
  std::vector<int64_t> s(spatial, 1);
  for (size_t d = spatial - 1; d-- > 0;) s[d] = s[d + 1] * in[in.size() - spatial + d + 1];
  return s;
}

}  // namespace

TapGeometry tap_geometry(const std::string& op, const ValueList& args) {
  const bool cubic = op == "upsample_bicubic2d";
  const size_t spatial = cubic ? 2 : 3;
  const Tensor input = tensor_arg(args[0]);
  const IValue& sizes = args[1];
  const bool align_corners = args[2].to_bool();
  const IValue& scales = args[3];
  const Shape in = input.shape();
  const std::vector<int64_t> out = resample_output_size(op, input, spatial, sizes, scales);
  TapGeometry g;
  g.planes = in[0] * in[1];
  g.in_shape = in;
  g.out_shape = {in[0], in[1]};
  for (size_t i = 0; i < spatial; ++i) {
    g.out_shape.push_back(out[i]);
    g.axes.push_back(cubic ? cubic_axis(in[2 + i], out[i], align_corners, scales, i)
                           : linear_taps(in[2 + i], out[i], align_corners, scales, i));
  }
  return g;
}

Tensor tap_forward(const Tensor& input, const TapGeometry& g) {
  Tensor out = Tensor::empty(g.out_shape, DType::Float32);
  const size_t spatial = g.axes.size();
  const Shape out_plane(g.out_shape.end() - static_cast<int64_t>(spatial), g.out_shape.end());
  const std::vector<int64_t> strides = plane_strides(g.in_shape, spatial);
  const int64_t in_size = strides[0] * g.in_shape[g.in_shape.size() - spatial];
  int64_t out_size = 1;
  for (int64_t s : out_plane) out_size *= s;
  const float* src = input.data<float>();
  float* dst = out.data<float>();
  for (int64_t p = 0; p < g.planes; ++p) {
    const float* plane = src + p * in_size;
    float* o = dst + p * out_size;
    for_each_output(out_plane, [&](int64_t e, const std::vector<int64_t>& at) {
      o[e] = eval(plane, g.axes, strides, at, 0, 0);
    });
  }
  return out;
}

Tensor tap_backward(const Tensor& grad, const TapGeometry& g) {
  Tensor out = Tensor::zeros(g.in_shape);
  const Tensor gr = grad.to(DType::Float32);
  const size_t spatial = g.axes.size();
  const Shape out_plane(g.out_shape.end() - static_cast<int64_t>(spatial), g.out_shape.end());
  const std::vector<int64_t> strides = plane_strides(g.in_shape, spatial);
  const int64_t in_size = strides[0] * g.in_shape[g.in_shape.size() - spatial];
  int64_t out_size = 1;
  for (int64_t s : out_plane) out_size *= s;
  const float* pg = gr.data<float>();
  float* dst = out.data<float>();
  for (int64_t p = 0; p < g.planes; ++p) {
    float* plane = dst + p * in_size;
    const float* gi = pg + p * out_size;
    for_each_output(out_plane, [&](int64_t e, const std::vector<int64_t>& at) {
      scatter(plane, g.axes, strides, at, 0, 0, gi[e]);
    });
  }
  return out;
}

void register_resample_taps(OpRegistry& r) {
  for (const char* op : {"upsample_bicubic2d", "upsample_trilinear3d"}) {
    r.add("aten::" + std::string(op) +
              ".vec(Tensor input, int[]? output_size, bool align_corners, float[]? "
              "scale_factors) -> Tensor",
          [op](OpContext&, const ValueList& a) {
            return IValue(tap_forward(tensor_arg(a[0]), tap_geometry(op, a)));
          });
  }
}

}  // namespace d2s::kernels
