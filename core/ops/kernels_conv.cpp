// Convolution: aten::conv1d and aten::conv2d (integer padding, and 'same'/'valid' as
// the .padding overloads), as im2col + Eigen's GEMM per sample and group: the input
// patches of one group become the columns of a (C/g * kh * kw) x (oh * ow) matrix and
// the group's weight rows multiply it. conv1d is conv2d over a height of 1. The
// backward (derivatives_conv.cpp) runs the same loops the other way (col2im).
#include "core/ops/kernels_conv.h"

#include <Eigen/Core>
#include <algorithm>
#include <memory>
#include <vector>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat>;
using Map = Eigen::Map<RowMat>;

// Multiply-adds from which a convolution's samples and groups run on all cores.
constexpr double kParallelConvMacs = double(int64_t{1} << 26);

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

std::string join(const std::vector<int64_t>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::to_string(v[i]);
  return out;
}

// An int[N] argument as bound (a list; a schema default may be a plain int).
std::vector<int64_t> ints_of(const IValue& v) {
  return v.is_int() ? std::vector<int64_t>{v.to_int()} : v.to_int_list();
}

// This thread's patch matrix, kept between calls: a fresh one (megabytes for a
// ResNet layer) costs a zero fill and a page fault per page on every call, which was
// an eighth of a convolution's time. im2col writes every entry, so none is cleared.
float* patch_buffer(size_t floats) {
  thread_local std::unique_ptr<float[]> buffer;
  thread_local size_t capacity = 0;
  if (capacity < floats) {
    buffer.reset(new float[floats]);
    capacity = floats;
  }
  return buffer.get();
}

// Copies the input patches of `channels` channels (starting at src) into the columns
// of `col` ((channels * kh * kw) x (oh * ow)); padding reads as zeros.
void im2col(const float* src, const ConvGeometry& g, int64_t channels, float* col) {
  const int64_t cols = g.oh * g.ow;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t ki = 0; ki < g.kh; ++ki) {
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        float* row = col + ((c * g.kh + ki) * g.kw + kj) * cols;
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          float* r = row + oy * g.ow;
          const int64_t iy = oy * g.sh - g.pt + ki * g.dh;
          if (iy < 0 || iy >= g.h) {
            std::fill_n(r, g.ow, 0.0f);
            continue;
          }
          // Output columns [first, last) read inside the input row (ix = ox * sw + shift);
          // the columns either side read the padding. Found once per row rather than
          // tested per element: this loop is a tenth of a convolution's time.
          const float* line = src + (c * g.h + iy) * g.w;
          const int64_t shift = kj * g.dw - g.pl;
          const int64_t first = std::min(g.ow, shift >= 0 ? 0 : (-shift + g.sw - 1) / g.sw);
          const int64_t last = std::max(
              first, std::min(g.ow, g.w - shift <= 0 ? 0 : (g.w - shift + g.sw - 1) / g.sw));
          std::fill(r, r + first, 0.0f);
          if (g.sw == 1) {
            std::copy(line + first + shift, line + last + shift, r + first);
          } else {
            for (int64_t ox = first; ox < last; ++ox) r[ox] = line[ox * g.sw + shift];
          }
          std::fill(r + last, r + g.ow, 0.0f);
        }
      }
    }
  }
}

// The adjoint of im2col: adds each column entry back onto the input element it came
// from (padding entries are dropped).
void col2im(const float* col, const ConvGeometry& g, int64_t channels, float* dst) {
  const int64_t cols = g.oh * g.ow;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t ki = 0; ki < g.kh; ++ki) {
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        const float* row = col + ((c * g.kh + ki) * g.kw + kj) * cols;
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          const int64_t iy = oy * g.sh - g.pt + ki * g.dh;
          if (iy < 0 || iy >= g.h) continue;
          const float* r = row + oy * g.ow;
          float* line = dst + (c * g.h + iy) * g.w;
          for (int64_t ox = 0; ox < g.ow; ++ox) {
            const int64_t ix = ox * g.sw - g.pl + kj * g.dw;
            if (ix >= 0 && ix < g.w) line[ix] += r[ox];
          }
        }
      }
    }
  }
}

// A 1x1 kernel at stride 1 without padding reads the input as its own column matrix.
bool direct(const ConvGeometry& g) {
  return g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.pt == 0 && g.pl == 0 &&
         g.oh == g.h && g.ow == g.w;
}

void require_float(const Tensor& t, const char* what) {
  if (t.dtype() != DType::Float32) {
    fail(std::string("\"") + what + "\" not implemented for '" + dtype_word(t.dtype()) + "'");
  }
}

Tensor conv(int spatial, const ValueList& a) {
  const Tensor input = tensor_arg(a[0]);
  const Tensor weight = tensor_arg(a[1]);
  const ConvGeometry g =
      conv_geometry(spatial, input, weight, a[2], a[3], a[4], a[5], a[6].to_int());
  return conv_forward(input, weight, a[2], g);
}

}  // namespace

// An int[N] argument: one value repeated, or exactly `n` values.
std::vector<int64_t> conv_ints(const IValue& v, int n, const char* name) {
  std::vector<int64_t> items = ints_of(v);
  if (items.size() == 1) items.assign(static_cast<size_t>(n), items[0]);
  if (static_cast<int>(items.size()) != n) {
    fail(std::string("expected ") + name + " to be a single integer value or a list of " +
         std::to_string(n) + " values to match the convolution dimensions, but got " + name + "=[" +
         join(ints_of(v), ", ") + "]");
  }
  return items;
}

Shape ConvGeometry::output_shape() const {
  Shape s;
  if (batched) s.push_back(n);
  s.push_back(o);
  if (spatial == 2) s.push_back(oh);
  s.push_back(ow);
  return s;
}

ConvGeometry conv_geometry(int spatial, const Tensor& input, const Tensor& weight,
                           const IValue& bias, const IValue& stride, const IValue& padding,
                           const IValue& dilation, int64_t groups) {
  const std::string name = "conv" + std::to_string(spatial) + "d";
  const int64_t k = spatial + 2;
  if (input.dim() != k && input.dim() != k - 1) {
    fail("Expected " + std::to_string(k - 1) + "D (unbatched) or " + std::to_string(k) +
         "D (batched) input to " + name + ", but got input of size: " + shape_str(input.shape()));
  }
  ConvGeometry g;
  g.spatial = spatial;
  g.batched = input.dim() == k;
  const std::vector<int64_t> s = conv_ints(stride, spatial, "stride");
  const std::vector<int64_t> d = conv_ints(dilation, spatial, "dilation");
  std::vector<int64_t> p(static_cast<size_t>(spatial), 0);
  const bool same = padding.is_string() && padding.to_string() == "same";
  if (padding.is_string()) {
    if (!same && padding.to_string() != "valid") {
      fail("Invalid padding string: '" + padding.to_string() + "'");
    }
  } else {
    p = conv_ints(padding, spatial, "padding");
  }
  for (int64_t v : s) {
    if (v <= 0) fail("non-positive stride is not supported");
  }
  for (int64_t v : p) {
    if (v < 0) fail("negative padding is not supported");
  }
  for (int64_t v : d) {
    if (v <= 0) fail("dilation should be greater than zero");
  }
  if (groups <= 0) fail("non-positive groups is not supported");
  if (weight.dim() != k) {
    fail("Expected " + std::to_string(weight.dim()) + "-dimensional input for " +
         std::to_string(weight.dim()) + "-dimensional weight " + shape_str(weight.shape()) +
         ", but got " + std::to_string(input.dim()) + "-dimensional input of size " +
         shape_str(input.shape()) + " instead");
  }
  const Shape ws = weight.shape();
  if (ws[0] % groups != 0) {
    fail("Given groups=" + std::to_string(groups) + ", expected weight to be divisible by " +
         std::to_string(groups) + " at dimension 0, but got weight of size " + shape_str(ws) +
         " instead");
  }
  const Shape batched_shape = [&] {
    Shape b = input.shape();
    if (!g.batched) b.insert(b.begin(), 1);
    return b;
  }();
  if (batched_shape[1] != ws[1] * groups) {
    fail("Given groups=" + std::to_string(groups) + ", weight of size " + shape_str(ws) +
         ", expected input" + shape_str(batched_shape) + " to have " +
         std::to_string(ws[1] * groups) + " channels, but got " + std::to_string(batched_shape[1]) +
         " channels instead");
  }
  if (!bias.is_none()) {
    const Tensor b = tensor_arg(bias);
    if (b.dim() != 1 || b.shape()[0] != ws[0]) {
      fail("Given weight of size " + shape_str(ws) + ", expected bias to be 1-dimensional with " +
           std::to_string(ws[0]) + " elements, but got bias of size " + shape_str(b.shape()) +
           " instead");
    }
  }
  if (same) {
    for (int64_t v : s) {
      if (v != 1) fail("padding='same' is not supported for strided convolutions");
    }
  }
  g.n = batched_shape[0];
  g.c = batched_shape[1];
  g.h = spatial == 2 ? batched_shape[2] : 1;
  g.w = batched_shape[k - 1];
  g.o = ws[0];
  g.kh = spatial == 2 ? ws[2] : 1;
  g.kw = ws[k - 1];
  g.groups = groups;
  g.sh = spatial == 2 ? s[0] : 1;
  g.sw = s[static_cast<size_t>(spatial - 1)];
  g.dh = spatial == 2 ? d[0] : 1;
  g.dw = d[static_cast<size_t>(spatial - 1)];
  // Total padding per dim: 'same' pads d * (k - 1), the odd one extra at the end.
  int64_t total_h = 0, total_w = 0;
  if (same) {
    total_h = g.dh * (g.kh - 1);
    total_w = g.dw * (g.kw - 1);
    g.pt = total_h / 2;
    g.pl = total_w / 2;
  } else {
    g.pt = spatial == 2 ? p[0] : 0;
    g.pl = p[static_cast<size_t>(spatial - 1)];
    total_h = 2 * g.pt;
    total_w = 2 * g.pl;
  }
  const int64_t ekh = g.dh * (g.kh - 1) + 1, ekw = g.dw * (g.kw - 1) + 1;
  std::vector<int64_t> padded, kernel;
  if (spatial == 2) {
    padded.push_back(g.h + total_h);
    kernel.push_back(ekh);
  }
  padded.push_back(g.w + total_w);
  kernel.push_back(ekw);
  for (size_t i = 0; i < padded.size(); ++i) {
    if (padded[i] < kernel[i]) {
      fail("Calculated padded input size per channel: (" + join(padded, " x ") +
           "). Kernel size: (" + join(kernel, " x ") +
           "). Kernel size can't be greater than actual input size");
    }
  }
  require_float(input, "slow_conv2d_cpu");
  if (weight.dtype() != DType::Float32) {
    fail("expected scalar type Float but found " + std::string(dtype_word(weight.dtype())));
  }
  g.oh = (g.h + total_h - ekh) / g.sh + 1;
  g.ow = (g.w + total_w - ekw) / g.sw + 1;
  return g;
}

Tensor conv_forward(const Tensor& input, const Tensor& weight, const IValue& bias,
                    const ConvGeometry& g) {
  const int64_t cg = g.c / g.groups, og = g.o / g.groups;
  const int64_t kg = cg * g.kh * g.kw, cols = g.oh * g.ow;
  Tensor out = Tensor::empty(g.output_shape(), DType::Float32);
  const bool is_direct = direct(g);
  const float* x = input.data<float>();
  const float* w = weight.data<float>();
  float* o = out.data<float>();
  Eigen::setNbThreads(1);
  // Each (sample, group) pair is one independent GEMM into its own part of the output,
  // so the pairs split between the OpenMP threads, each with its own patch matrix:
  // the result is the same bits as one thread's. Small convolutions stay on one core
  // (a thread's start and join would cost more than it saves; see for_product_blocks in
  // kernels_linalg.cpp for the same rule).
  const int64_t pairs = g.n * g.groups;
  const bool parallel =
      pairs > 1 && double(pairs) * double(og) * double(kg) * double(cols) >= kParallelConvMacs;
#pragma omp parallel if (parallel)
  {
    float* col = is_direct ? nullptr : patch_buffer(static_cast<size_t>(kg * cols));
#pragma omp for schedule(static)
    for (int64_t pair = 0; pair < pairs; ++pair) {
      const int64_t n = pair / g.groups, grp = pair % g.groups;
      const float* src = x + (n * g.c + grp * cg) * g.h * g.w;
      if (!is_direct) im2col(src, g, cg, col);
      ConstMap wm(w + grp * og * kg, og, kg);
      ConstMap cm(is_direct ? src : col, kg, cols);
      Map om(o + (n * g.o + grp * og) * cols, og, cols);
      om.noalias() = wm * cm;
    }
  }
  if (!bias.is_none()) {
    const Tensor b = tensor_arg(bias).to(DType::Float32);
    const float* pb = b.data<float>();
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.o; ++c) {
        float* row = o + (n * g.o + c) * cols;
        for (int64_t i = 0; i < cols; ++i) row[i] += pb[c];
      }
    }
  }
  return out;
}

ConvGrads conv_backward(const Tensor& grad, const Tensor& input, const Tensor& weight,
                        const ConvGeometry& g, bool want_input, bool want_weight, bool want_bias) {
  const int64_t cg = g.c / g.groups, og = g.o / g.groups;
  const int64_t kg = cg * g.kh * g.kw, cols = g.oh * g.ow;
  const Tensor gr = grad.to(DType::Float32);
  const float* pg = gr.data<float>();
  const float* x = input.data<float>();
  const float* w = weight.data<float>();
  ConvGrads out;
  if (want_input) out.input = Tensor::zeros(input.shape());
  if (want_weight) out.weight = Tensor::zeros(weight.shape());
  const bool is_direct = direct(g);
  std::vector<float> col(static_cast<size_t>(kg * cols));
  Eigen::setNbThreads(1);
  for (int64_t n = 0; n < g.n && (want_input || want_weight); ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      ConstMap gm(pg + (n * g.o + grp * og) * cols, og, cols);
      const int64_t in_offset = (n * g.c + grp * cg) * g.h * g.w;
      if (want_weight) {
        const float* src = x + in_offset;
        if (!is_direct) im2col(src, g, cg, col.data());
        ConstMap cm(is_direct ? src : col.data(), kg, cols);
        Map gw(out.weight.data<float>() + grp * og * kg, og, kg);
        gw.noalias() += gm * cm.transpose();
      }
      if (want_input) {
        ConstMap wm(w + grp * og * kg, og, kg);
        float* dst = out.input.data<float>() + in_offset;
        if (is_direct) {
          Map(dst, kg, cols).noalias() += wm.transpose() * gm;
        } else {
          Map cm(col.data(), kg, cols);
          cm.noalias() = wm.transpose() * gm;
          col2im(col.data(), g, cg, dst);
        }
      }
    }
  }
  if (want_bias) {
    out.bias = Tensor::zeros({g.o});
    float* pb = out.bias.data<float>();
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.o; ++c) {
        const float* row = pg + (n * g.o + c) * cols;
        double s = 0;
        for (int64_t i = 0; i < cols; ++i) s += row[i];
        pb[c] += static_cast<float>(s);
      }
    }
  }
  return out;
}

void register_conv(OpRegistry& r) {
  using A = const ValueList&;
  r.add(
      "aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
      "int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor",
      [](OpContext&, A a) { return tv(conv(1, a)); });
  r.add(
      "aten::conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
      "str padding=\"valid\", int[1] dilation=1, int groups=1) -> Tensor",
      [](OpContext&, A a) { return tv(conv(1, a)); });
  r.add(
      "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
      "int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
      [](OpContext&, A a) { return tv(conv(2, a)); });
  r.add(
      "aten::conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
      "str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor",
      [](OpContext&, A a) { return tv(conv(2, a)); });
}

}  // namespace d2s::kernels
