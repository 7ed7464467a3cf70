// Internal to core/: resampling and padding (kernels_resize.cpp, kernels_pad.cpp) and
// what their derivatives (derivatives_resize.cpp) reuse.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s::kernels {

// aten::upsample_{nearest,linear,bilinear}{1,2}d.vec over the last `spatial` dims:
// each output index reads at most two input indices per dim, with weights computed as
// PyTorch's CPU kernel computes them (float source indices, clamped at the edges).
struct ResampleAxis {
  std::vector<int64_t> i0, i1;  // the input indices each output index reads
  std::vector<float> w0, w1;    // their weights (w1 = 0 for nearest)
};
struct ResampleGeometry {
  bool linear = false;
  Shape out_shape;
  int64_t planes = 0;  // product of the leading (batch, channel) dims
  int64_t h = 1, w = 0, oh = 1, ow = 0;
  ResampleAxis y, x;  // y is one row of index 0 for 1-d resampling
};
// The output sizes of an upsample_* op over the last `spatial` dims of `input`, from
// exactly one of `sizes` (int[]) and `scales` (float[]), with PyTorch's checks and
// messages (input rank, one of the two, their lengths, sizes above 0, float32 input).
std::vector<int64_t> resample_output_size(const std::string& op, const Tensor& input,
                                          size_t spatial, const IValue& sizes,
                                          const IValue& scales);
// `op` is the short name ("upsample_bilinear2d"); args are the op's bound arguments.
ResampleGeometry resample_geometry(const std::string& op, const ValueList& args);
Tensor resample_forward(const Tensor& input, const ResampleGeometry& g);
Tensor resample_backward(const Tensor& grad, const ResampleGeometry& g, const Shape& input_shape);

// aten::upsample_bicubic2d.vec and upsample_trilinear3d.vec (kernels_resample_taps.cpp):
// per spatial dim, each output index reads `taps` input indices (4 cubic, 2 linear),
// clamped to the border, with PyTorch's weights.
struct TapAxis {
  int64_t taps = 0;
  std::vector<int64_t> index;  // out * taps input indices
  std::vector<float> weight;   // their weights
};
struct TapGeometry {
  Shape in_shape, out_shape;
  int64_t planes = 0;  // product of the leading (batch, channel) dims
  std::vector<TapAxis> axes;
};
// `op` is "upsample_bicubic2d" or "upsample_trilinear3d"; args the op's bound arguments.
TapGeometry tap_geometry(const std::string& op, const ValueList& args);
Tensor tap_forward(const Tensor& input, const TapGeometry& g);
Tensor tap_backward(const Tensor& grad, const TapGeometry& g);

// aten::__interpolate (F.interpolate's arguments): the op core/ops/interpolate.h chooses
// for the input ("upsample_bilinear2d", "adaptive_avg_pool2d", ...) and its bound
// arguments; its result and its input's gradient.
struct InterpolatePlan {
  std::string op;
  ValueList args;
};
InterpolatePlan interpolate_plan(const ValueList& args);
Tensor interpolate_forward(const InterpolatePlan& plan);
Tensor interpolate_backward(const Tensor& grad, const InterpolatePlan& plan);

// aten::pixel_shuffle / pixel_unshuffle: the result's shape after PyTorch's checks,
// and the element permutation itself (shuffle when `up`, else unshuffle).
Tensor pixel_shuffle(const Tensor& input, int64_t factor, bool up);

// aten::pad: for each element of the result, the flat index of the input element it
// reads, or -1 where it holds the constant (`mode` constant only).
struct PadPlan {
  Shape out_shape;
  std::vector<int64_t> source;
  double value = 0;
};
PadPlan pad_plan(const Tensor& input, const std::vector<int64_t>& pad, const std::string& mode,
                 const IValue& value);

}  // namespace d2s::kernels
