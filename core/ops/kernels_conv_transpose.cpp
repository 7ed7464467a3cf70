// Transposed convolution: aten::conv_transpose1d and aten::conv_transpose2d. A transposed
// convolution is the adjoint of the convolution whose geometry it names, so it reuses
// that convolution's loops with the roles swapped: its forward is the convolution's
// input gradient (GEMM + col2im), its input gradient is the convolution's forward
// (im2col + GEMM), and its weight gradient is the convolution's weight gradient with
// the output gradient as that convolution's input.
#include <algorithm>
#include <string>
#include <vector>

#include "core/ops/kernels.h"
#include "core/ops/kernels_conv.h"

namespace d2s::kernels {

namespace {

std::string join(const std::vector<int64_t>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::to_string(v[i]);
  return out;
}

Shape output_shape_of(const ConvGeometry& g) {
  Shape s;
  if (g.batched) s.push_back(g.n);
  s.push_back(g.c);
  if (g.spatial == 2) s.push_back(g.h);
  s.push_back(g.w);
  return s;
}

}  // namespace

ConvGeometry conv_transpose_geometry(int spatial, const Tensor& input, const Tensor& weight,
                                     const IValue& bias, const IValue& stride,
                                     const IValue& padding, const IValue& output_padding,
                                     int64_t groups, const IValue& dilation) {
  const std::string name = "conv_transpose" + std::to_string(spatial) + "d";
  const int64_t k = spatial + 2;
  if (input.dim() != k && input.dim() != k - 1) {
    fail("Expected " + std::to_string(k - 1) + "D (unbatched) or " + std::to_string(k) +
         "D (batched) input to " + name + ", but got input of size: " + shape_str(input.shape()));
  }
  // PyTorch expands the int lists to the weight's spatial rank, so a weight of the wrong
  // rank shows as a list of the wrong length.
  const int wspatial = static_cast<int>(weight.dim()) - 2;
  const std::vector<int64_t> s = conv_ints(stride, wspatial, "stride");
  const std::vector<int64_t> p = conv_ints(padding, wspatial, "padding");
  const std::vector<int64_t> op = conv_ints(output_padding, wspatial, "output_padding");
  const std::vector<int64_t> d = conv_ints(dilation, wspatial, "dilation");
  for (int64_t v : s) {
    if (v <= 0) fail("non-positive stride is not supported");
  }
  for (int64_t v : p) {
    if (v < 0) fail("negative padding is not supported");
  }
  for (int64_t v : op) {
    if (v < 0) fail("negative output_padding is not supported");
  }
  for (int64_t v : d) {
    if (v <= 0) fail("dilation should be greater than zero");
  }
  if (groups <= 0) fail("non-positive groups is not supported");
  const Shape ws = weight.shape();
  if (ws[0] % groups != 0) {
    fail("Given groups=" + std::to_string(groups) + ", expected weight to be divisible by " +
         std::to_string(groups) + " at dimension 0, but got weight of size [" + shape_str(ws) +
         "] instead");
  }
  ConvGeometry g;
  g.spatial = spatial;
  g.batched = input.dim() == k;
  Shape in_shape = input.shape();
  if (!g.batched) in_shape.insert(in_shape.begin(), 1);
  if (in_shape[1] != ws[0]) {
    fail("Given transposed=1, weight of size " + shape_str(ws) + ", expected input" +
         shape_str(in_shape) + " to have " + std::to_string(ws[0]) + " channels, but got " +
         std::to_string(in_shape[1]) + " channels instead");
  }
  if (!bias.is_none()) {
    const Tensor b = tensor_arg(bias);
    if (b.dim() != 1 || b.shape()[0] != ws[1] * groups) {
      fail("Given transposed=1, weight of size " + shape_str(ws) +
           ", expected bias to be 1-dimensional with " + std::to_string(ws[1] * groups) +
           " elements, but got bias of size " + shape_str(b.shape()) + " instead");
    }
  }
  for (size_t i = 0; i < op.size(); ++i) {
    if (op[i] >= s[i] && op[i] >= d[i]) {
      std::string msg = "output padding must be smaller than either stride or dilation, but got";
      const char* axes[] = {"height", "width"};
      const bool two = op.size() == 2;
      auto part = [&](const char* what, const std::vector<int64_t>& v) {
        for (size_t j = 0; j < v.size(); ++j) {
          msg += std::string(" ") + what + (two ? std::string("_") + axes[j] : "") + ": " +
                 std::to_string(v[j]);
        }
      };
      part("output_padding", op);
      part("stride", s);
      part("dilation", d);
      fail(msg);
    }
  }
  if (input.dtype() != DType::Float32) {
    fail(std::string("\"slow_conv_transpose2d_out_cpu\" not implemented for '") +
         dtype_word(input.dtype()) + "'");
  }
  if (weight.dtype() != DType::Float32) {
    fail("expected scalar type Float but found " + std::string(dtype_word(weight.dtype())));
  }
  g.n = in_shape[0];
  g.o = ws[0];
  g.c = ws[1] * groups;
  g.oh = spatial == 2 ? in_shape[2] : 1;
  g.ow = in_shape[static_cast<size_t>(k - 1)];
  g.kh = spatial == 2 ? ws[2] : 1;
  g.kw = ws[static_cast<size_t>(k - 1)];
  g.groups = groups;
  const size_t last = static_cast<size_t>(spatial - 1);
  g.sh = spatial == 2 ? s[0] : 1;
  g.sw = s[last];
  g.dh = spatial == 2 ? d[0] : 1;
  g.dw = d[last];
  g.pt = spatial == 2 ? p[0] : 0;
  g.pl = p[last];
  const int64_t oph = spatial == 2 ? op[0] : 0, opw = op[last];
  g.h = (g.oh - 1) * g.sh - 2 * g.pt + g.dh * (g.kh - 1) + oph + 1;
  g.w = (g.ow - 1) * g.sw - 2 * g.pl + g.dw * (g.kw - 1) + opw + 1;
  if (g.h < 1 || g.w < 1) {
    std::vector<int64_t> in_sizes, out_sizes;
    if (spatial == 2) {
      in_sizes.push_back(g.oh);
      out_sizes.push_back(g.h);
    }
    in_sizes.push_back(g.ow);
    out_sizes.push_back(g.w);
    fail("Given input size per channel: (" + join(in_sizes, " x ") +
         "). Calculated output size per channel: (" + join(out_sizes, " x ") +
         "). Output size is too small");
  }
  return g;
}

Tensor conv_transpose_forward(const Tensor& input, const Tensor& weight, const IValue& bias,
                              const ConvGeometry& g) {
  // The convolution's input gradient for an output gradient equal to `input`; the
  // shape-only tensor stands for that convolution's input, which it never reads.
  const Tensor shape_only = Tensor::empty(output_shape_of(g), DType::Float32);
  Tensor out =
      conv_backward(input.to(DType::Float32), shape_only, weight, g, true, false, false).input;
  if (!bias.is_none()) {
    const Tensor b = tensor_arg(bias).to(DType::Float32);
    const float* pb = b.data<float>();
    float* o = out.data<float>();
    const int64_t plane = g.h * g.w;
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        float* row = o + (n * g.c + c) * plane;
        for (int64_t i = 0; i < plane; ++i) row[i] += pb[c];
      }
    }
  }
  return out;
}

ConvGrads conv_transpose_backward(const Tensor& grad, const Tensor& input, const Tensor& weight,
                                  const ConvGeometry& g, bool want_input, bool want_weight,
                                  bool want_bias) {
  const Tensor gr = grad.to(DType::Float32);
  ConvGrads out;
  if (want_input) out.input = conv_forward(gr, weight, IValue(), g);
  if (want_weight) {
    out.weight = conv_backward(input.to(DType::Float32), gr, weight, g, false, true, false).weight;
  }
  if (want_bias) {
    out.bias = Tensor::zeros({g.c});
    float* pb = out.bias.data<float>();
    const float* pg = gr.data<float>();
    const int64_t plane = g.h * g.w;
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        const float* row = pg + (n * g.c + c) * plane;
        double sum = 0;
        for (int64_t i = 0; i < plane; ++i) sum += row[i];
        pb[c] += static_cast<float>(sum);
      }
    }
  }
  return out;
}

void register_conv_transpose(OpRegistry& r) {
  using A = const ValueList&;
  auto run = [](int spatial, A a) {
    const Tensor input = tensor_arg(a[0]);
    const Tensor weight = tensor_arg(a[1]);
    const ConvGeometry g = conv_transpose_geometry(spatial, input, weight, a[2], a[3], a[4], a[5],
                                                   a[6].to_int(), a[7]);
    return IValue(conv_transpose_forward(input, weight, a[2], g));
  };
  r.add(
      "aten::conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
      "int[1] padding=0, int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor",
      [run](OpContext&, A a) { return run(1, a); });
  r.add(
      "aten::conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, "
      "int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, "
      "int[2] dilation=1) -> Tensor",
      [run](OpContext&, A a) { return run(2, a); });
}

}  // namespace d2s::kernels
