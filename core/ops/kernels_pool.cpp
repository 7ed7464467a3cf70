// Pooling: max_pool1d/2d (padding, dilation, ceil_mode; max_pool2d_with_indices for
// return_indices), avg_pool1d/2d (count_include_pad, divisor_override), and the
// adaptive pools (adaptive_avg_pool1d/2d, adaptive_max_pool2d) with PyTorch's window
// bounds, so that every output size, also one larger than the input, gives PyTorch's
// numbers. The 1-d pools are the 2-d loops over a height of 1; the leading dims (batch
// and channels, or channels alone) are independent planes.
#include <cmath>
#include <limits>

#include "core/ops/kernels.h"
#include "core/ops/kernels_conv.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

// Python's floor division for the output size (numerators can be negative).
int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// PyTorch's pooling_output_shape.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation,
                    bool ceil_mode) {
  int64_t out =
      floor_div(in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0), stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

// An int[N] argument as bound (a list; a schema default may be a plain int).
std::vector<int64_t> ints_of(const IValue& v) {
  return v.is_int() ? std::vector<int64_t>{v.to_int()} : v.to_int_list();
}

// An int[N] argument of a pool: one value repeated, or exactly n values.
std::vector<int64_t> pool_ints(const IValue& v, int n, const std::string& op, const char* what) {
  std::vector<int64_t> items = ints_of(v);
  if (items.size() == 1) items.assign(static_cast<size_t>(n), items[0]);
  if (static_cast<int>(items.size()) != n) {
    fail(op + ": " + what + " must either be a single int, or a tuple of " + std::to_string(n) +
         " ints");
  }
  return items;
}

int64_t adaptive_start(int64_t i, int64_t out, int64_t in) {
  return (i * in) / out;
}
int64_t adaptive_end(int64_t i, int64_t out, int64_t in) {
  return ((i + 1) * in + out - 1) / out;
}

// The bounds of output (oy, ox)'s window in input coordinates, clamped to the input
// (dilation is applied by the max loop), and the avg pool's divisor.
struct Window {
  int64_t y0, y1, x0, x1;
  int64_t divisor;
};

Window window_of(const PoolGeometry& g, int64_t oy, int64_t ox) {
  Window win{};
  switch (g.kind) {
    case PoolKind::AdaptiveAvg:
    case PoolKind::AdaptiveMax:
      win.y0 = adaptive_start(oy, g.oh, g.h);
      win.y1 = adaptive_end(oy, g.oh, g.h);
      win.x0 = adaptive_start(ox, g.ow, g.w);
      win.x1 = adaptive_end(ox, g.ow, g.w);
      win.divisor = (win.y1 - win.y0) * (win.x1 - win.x0);
      break;
    case PoolKind::Avg: {
      int64_t y0 = oy * g.sh - g.ph, x0 = ox * g.sw - g.pw;
      int64_t y1 = std::min(y0 + g.kh, g.h + g.ph), x1 = std::min(x0 + g.kw, g.w + g.pw);
      const int64_t pool_size = (y1 - y0) * (x1 - x0);
      y0 = std::max<int64_t>(y0, 0);
      x0 = std::max<int64_t>(x0, 0);
      y1 = std::min(y1, g.h);
      x1 = std::min(x1, g.w);
      win = {y0, y1, x0, x1, 0};
      win.divisor = g.divisor ? g.divisor : g.count_include_pad ? pool_size : (y1 - y0) * (x1 - x0);
      break;
    }
    case PoolKind::Max:
      win.y0 = oy * g.sh - g.ph;
      win.x0 = ox * g.sw - g.pw;
      break;
  }
  return win;
}

// The flat index (y * w + x) of the maximum of output (oy, ox)'s window in `plane`:
// the first maximum, a NaN wins (the last one), as PyTorch's CPU kernels pick it.
int64_t argmax_of(const float* plane, const PoolGeometry& g, int64_t oy, int64_t ox) {
  const Window win = window_of(g, oy, ox);
  int64_t best = -1;
  float m = -std::numeric_limits<float>::infinity();
  auto visit = [&](int64_t y, int64_t x) {
    const float v = plane[y * g.w + x];
    if (best < 0 || v > m || std::isnan(v)) {
      best = y * g.w + x;
      m = v;
    }
  };
  if (g.kind == PoolKind::AdaptiveMax) {
    for (int64_t y = win.y0; y < win.y1; ++y) {
      for (int64_t x = win.x0; x < win.x1; ++x) visit(y, x);
    }
  } else {
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const int64_t y = win.y0 + ky * g.dh;
      if (y < 0 || y >= g.h) continue;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t x = win.x0 + kx * g.dw;
        if (x >= 0 && x < g.w) visit(y, x);
      }
    }
  }
  return best;
}

bool is_max(const PoolGeometry& g) {
  return g.kind == PoolKind::Max || g.kind == PoolKind::AdaptiveMax;
}

std::string dims_text(const std::vector<int64_t>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::to_string(v[i]);
  return out;
}

Tensor pooled(const std::string& op, const ValueList& a) {
  const Tensor input = tensor_arg(a[0]);
  return pool_forward(input, pool_geometry(op, a), nullptr);
}

IValue pooled_with_indices(const std::string& op, const ValueList& a) {
  const Tensor input = tensor_arg(a[0]);
  Tensor indices;
  Tensor values = pool_forward(input, pool_geometry(op, a), &indices);
  return IValue::tuple({IValue(values), IValue(indices)});
}

}  // namespace

PoolGeometry pool_geometry(const std::string& op, const ValueList& a) {
  PoolGeometry g;
  const bool adaptive = op.rfind("adaptive_", 0) == 0;
  const bool is_avg = op.find("avg") != std::string::npos;
  g.kind = adaptive ? (is_avg ? PoolKind::AdaptiveAvg : PoolKind::AdaptiveMax)
                    : (is_avg ? PoolKind::Avg : PoolKind::Max);
  g.spatial = op.find("1d") != std::string::npos ? 1 : 2;
  const Tensor input = tensor_arg(a[0]);
  const int64_t nd = input.dim();
  const int64_t k = g.spatial + 2;
  if (nd != k && nd != k - 1) {
    fail(op + "(): Expected " + std::to_string(k - 1) + "D or " + std::to_string(k) +
         "D tensor for input, but got: " + shape_str(input.shape()));
  }
  if (input.dtype() != DType::Float32) {
    fail("\"" + op + "\" not implemented for '" + dtype_word(input.dtype()) + "'");
  }
  const Shape& s = input.shape();
  g.h = g.spatial == 2 ? s[nd - 2] : 1;
  g.w = s[nd - 1];
  g.planes = 1;
  for (int64_t i = 0; i < nd - g.spatial; ++i) g.planes *= s[i];
  // Only a batch dim may be empty.
  for (int64_t i = nd == k ? 1 : 0; i < nd; ++i) {
    if (s[i] == 0) {
      fail(op +
           "(): Expected input to have non-zero size for non-batch dimensions, but input "
           "has sizes " +
           shape_str(s) + " with dimension " + std::to_string(i) + " being empty");
    }
  }
  const size_t last = static_cast<size_t>(g.spatial - 1);
  if (adaptive) {
    const std::vector<int64_t> size = pool_ints(a[1], g.spatial, op, "output_size");
    for (int64_t v : size) {
      if (v < 0) {
        fail(op + ": elements of output_size must be greater than or equal to 0 but received {" +
             dims_text(ints_of(a[1]), ", ") + "}");
      }
    }
    g.oh = g.spatial == 2 ? size[0] : 1;
    g.ow = size[last];
  } else {
    const std::vector<int64_t> kernel = pool_ints(a[1], g.spatial, op, "kernel_size");
    const bool stride_given = !ints_of(a[2]).empty();
    const std::vector<int64_t> stride =
        stride_given ? pool_ints(a[2], g.spatial, op, "stride") : kernel;
    const std::vector<int64_t> pad = pool_ints(a[3], g.spatial, op, "padding");
    std::vector<int64_t> dil(static_cast<size_t>(g.spatial), 1);
    bool ceil_mode = false;
    if (g.kind == PoolKind::Max) {
      dil = pool_ints(a[4], g.spatial, op, "dilation");
      ceil_mode = a[5].to_bool();
    } else {
      ceil_mode = a[4].to_bool();
      g.count_include_pad = a[5].to_bool();
      if (a.size() > 6 && !a[6].is_none()) {
        g.divisor = a[6].to_int();
        if (g.divisor == 0) fail("divisor must be not zero");
      }
    }
    g.kh = g.spatial == 2 ? kernel[0] : 1;
    g.kw = kernel[last];
    g.sh = g.spatial == 2 ? stride[0] : 1;
    g.sw = stride[last];
    g.ph = g.spatial == 2 ? pad[0] : 0;
    g.pw = pad[last];
    g.dh = g.spatial == 2 ? dil[0] : 1;
    g.dw = dil[last];
    if (g.kh <= 0 || g.kw <= 0) {
      fail("kernel size should be greater than zero, but got kH: " + std::to_string(g.kh) +
           " kW: " + std::to_string(g.kw));
    }
    if (g.sh <= 0 || g.sw <= 0) {
      fail("stride should be greater than zero, but got dH: " + std::to_string(g.sh) +
           " dW: " + std::to_string(g.sw));
    }
    if (g.dh <= 0 || g.dw <= 0) {
      fail("dilation should be greater than zero, but got dilationH: " + std::to_string(g.dh) +
           " dilationW: " + std::to_string(g.dw));
    }
    if (g.ph < 0 || g.pw < 0 || g.ph > g.kh / 2 || g.pw > g.kw / 2) {
      fail("pad should be at most half of effective kernel size, but got pad=" +
           std::to_string(g.spatial == 2 ? std::max(g.ph, g.pw) : g.pw) +
           ", kernel_size=" + std::to_string(g.spatial == 2 ? std::max(g.kh, g.kw) : g.kw) +
           " and dilation=" + std::to_string(g.spatial == 2 ? std::max(g.dh, g.dw) : g.dw));
    }
    g.oh = pooled_size(g.h, g.kh, g.ph, g.sh, g.dh, ceil_mode);
    g.ow = pooled_size(g.w, g.kw, g.pw, g.sw, g.dw, ceil_mode);
    if (g.oh < 1 || g.ow < 1) {
      std::vector<int64_t> in_dims{nd == k ? s[1] : s[0]}, out_dims{in_dims[0]};
      if (g.spatial == 2) in_dims.push_back(g.h), out_dims.push_back(g.oh);
      in_dims.push_back(g.w);
      out_dims.push_back(g.ow);
      fail("Given input size: (" + dims_text(in_dims, "x") + "). Calculated output size: (" +
           dims_text(out_dims, "x") + "). Output size is too small");
    }
  }
  g.out_shape = Shape(s.begin(), s.end() - g.spatial);
  if (g.spatial == 2) g.out_shape.push_back(g.oh);
  g.out_shape.push_back(g.ow);
  return g;
}

Tensor pool_forward(const Tensor& input, const PoolGeometry& g, Tensor* indices) {
  Tensor out = Tensor::empty(g.out_shape, DType::Float32);
  if (indices) *indices = Tensor::empty(g.out_shape, DType::Int64);
  const float* x = input.data<float>();
  float* o = out.data<float>();
  int64_t* idx = indices ? indices->data<int64_t>() : nullptr;
  const int64_t in_plane = g.h * g.w, out_plane = g.oh * g.ow;
  for (int64_t p = 0; p < g.planes; ++p) {
    const float* plane = x + p * in_plane;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const int64_t at = p * out_plane + oy * g.ow + ox;
        if (is_max(g)) {
          const int64_t best = argmax_of(plane, g, oy, ox);
          o[at] = best < 0 ? -std::numeric_limits<float>::infinity() : plane[best];
          if (idx) idx[at] = best;
          continue;
        }
        const Window win = window_of(g, oy, ox);
        if (win.y0 >= win.y1 || win.x0 >= win.x1) {
          o[at] = 0.0f;
          continue;
        }
        float sum = 0.0f;
        for (int64_t y = win.y0; y < win.y1; ++y) {
          for (int64_t x1 = win.x0; x1 < win.x1; ++x1) sum += plane[y * g.w + x1];
        }
        o[at] = sum / static_cast<float>(win.divisor);
      }
    }
  }
  return out;
}

Tensor pool_backward(const Tensor& grad, const Tensor& input, const PoolGeometry& g) {
  const Tensor gr = grad.to(DType::Float32);
  Tensor gx = Tensor::zeros(input.shape());
  const float* x = input.data<float>();
  const float* pg = gr.data<float>();
  float* o = gx.data<float>();
  const int64_t in_plane = g.h * g.w, out_plane = g.oh * g.ow;
  for (int64_t p = 0; p < g.planes; ++p) {
    float* dst = o + p * in_plane;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        const float gv = pg[p * out_plane + oy * g.ow + ox];
        if (is_max(g)) {
          const int64_t best = argmax_of(x + p * in_plane, g, oy, ox);
          if (best >= 0) dst[best] += gv;
          continue;
        }
        const Window win = window_of(g, oy, ox);
        const float share = gv / static_cast<float>(win.divisor);
        for (int64_t y = win.y0; y < win.y1; ++y) {
          for (int64_t x1 = win.x0; x1 < win.x1; ++x1) dst[y * g.w + x1] += share;
        }
      }
    }
  }
  return gx;
}

void register_pool(OpRegistry& r) {
  using A = const ValueList&;
  r.add(
      "aten::max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
      "int[1] dilation=1, bool ceil_mode=False) -> Tensor",
      [](OpContext&, A a) { return tv(pooled("max_pool1d", a)); });
  r.add(
      "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
      [](OpContext&, A a) { return tv(pooled("max_pool2d", a)); });
  r.add(
      "aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], "
      "int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
      [](OpContext&, A a) { return pooled_with_indices("max_pool2d", a); }, OpTag::NoOnnx);
  r.add(
      "aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
      "bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
      [](OpContext&, A a) { return tv(pooled("avg_pool1d", a)); });
  r.add(
      "aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
      [](OpContext&, A a) { return tv(pooled("avg_pool2d", a)); });
  r.add("aten::adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor",
        [](OpContext&, A a) { return tv(pooled("adaptive_avg_pool1d", a)); });
  r.add("aten::adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor",
        [](OpContext&, A a) { return tv(pooled("adaptive_avg_pool2d", a)); });
  r.add("aten::adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)",
        [](OpContext&, A a) { return pooled_with_indices("adaptive_max_pool2d", a); });
}

}  // namespace d2s::kernels
