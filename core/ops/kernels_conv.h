// Internal to core/: convolution and pooling (kernels_conv.cpp, kernels_pool.cpp) and
// what their derivatives (derivatives_conv.cpp) reuse. Both families work on a 2-d
// spatial layout; the 1-d forms are the 2-d ones with a height of 1, and an unbatched
// input is a batch of one, so one set of loops serves conv1d/conv2d and every pool.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s::kernels {

// Sizes of one convolution, checked as PyTorch checks them.
struct ConvGeometry {
  int spatial = 2;       // 1 for conv1d, 2 for conv2d
  bool batched = true;   // the input had a batch dim
  int64_t n = 0, c = 0;  // batch, input channels
  int64_t h = 0, w = 0;  // input height (1 for conv1d) and width
  int64_t o = 0;         // output channels
  int64_t kh = 0, kw = 0;
  int64_t groups = 1;
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0;  // top and left padding; bottom and right follow from oh, ow
  int64_t oh = 0, ow = 0;
  Shape output_shape() const;
};

// An int[N] argument of a convolution: one value repeated, or exactly `n` values
// (PyTorch's message otherwise).
std::vector<int64_t> conv_ints(const IValue& v, int n, const char* name);

// The geometry of conv{spatial}d(input, weight, bias, stride, padding, dilation,
// groups); `padding` is an int list or 'same'/'valid'. Throws PyTorch's messages.
ConvGeometry conv_geometry(int spatial, const Tensor& input, const Tensor& weight,
                           const IValue& bias, const IValue& stride, const IValue& padding,
                           const IValue& dilation, int64_t groups);
// im2col + GEMM: the convolution's output (float32).
Tensor conv_forward(const Tensor& input, const Tensor& weight, const IValue& bias,
                    const ConvGeometry& g);
// The gradients of input, weight and bias for the output gradient `grad` (each
// undefined unless asked for).
struct ConvGrads {
  Tensor input, weight, bias;
};
ConvGrads conv_backward(const Tensor& grad, const Tensor& input, const Tensor& weight,
                        const ConvGeometry& g, bool want_input, bool want_weight, bool want_bias);

// Transposed convolution (kernels_conv_transpose.cpp), the adjoint of a convolution.
// Its geometry is that of the convolution it transposes: that convolution's input is
// the transposed one's output (c = output channels, h/w = output size) and its output
// is the transposed one's input (o = input channels, oh/ow = input size). The weight
// [in, out / groups, k...] is that convolution's weight as it is.
ConvGeometry conv_transpose_geometry(int spatial, const Tensor& input, const Tensor& weight,
                                     const IValue& bias, const IValue& stride,
                                     const IValue& padding, const IValue& output_padding,
                                     int64_t groups, const IValue& dilation);
Tensor conv_transpose_forward(const Tensor& input, const Tensor& weight, const IValue& bias,
                              const ConvGeometry& g);
ConvGrads conv_transpose_backward(const Tensor& grad, const Tensor& input, const Tensor& weight,
                                  const ConvGeometry& g, bool want_input, bool want_weight,
                                  bool want_bias);

// Pooling windows over the last one (spatial 1) or two dims of an input.
enum class PoolKind { Max, Avg, AdaptiveAvg, AdaptiveMax };
struct PoolGeometry {
  PoolKind kind = PoolKind::Max;
  int spatial = 2;
  Shape out_shape;       // the result's shape
  int64_t planes = 0;    // product of the leading dims
  int64_t h = 0, w = 0;  // input height (1 for 1-d pools) and width
  int64_t oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  bool count_include_pad = true;
  int64_t divisor = 0;  // divisor_override, 0 when none
};
// The geometry of a pool op from its bound arguments (args[0] is the input); `op` is
// the op's short name ("max_pool2d", "adaptive_avg_pool1d", ...).
PoolGeometry pool_geometry(const std::string& op, const ValueList& args);
// The pooled result; for max pools also the flat index (h * w + x) of each maximum
// within its plane when `indices` is given.
Tensor pool_forward(const Tensor& input, const PoolGeometry& g, Tensor* indices);
// The input's gradient for the result's gradient `grad`.
Tensor pool_backward(const Tensor& grad, const Tensor& input, const PoolGeometry& g);

}  // namespace d2s::kernels
