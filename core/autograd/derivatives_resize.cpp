// Derivatives of transposed convolution (core/ops/kernels_conv_transpose.cpp), resampling
// and pixel shuffling (kernels_resize.cpp) and padding (kernels_pad.cpp). Resampling
// and padding read only their input's shape: the gradient goes back through the same
// index maps and weights; pixel_shuffle's gradient is pixel_unshuffle's permutation
// and the other way round.
#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"
#include "core/ops/kernels_conv.h"
#include "core/ops/kernels_resize.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

ValueList conv_transpose_grad(In in, int spatial) {
  const Tensor input = tensor_of(in.args[0]);
  const Tensor weight = tensor_of(in.args[1]);
  const kernels::ConvGeometry g =
      kernels::conv_transpose_geometry(spatial, input, weight, in.args[2], in.args[3], in.args[4],
                                       in.args[5], in.args[6].to_int(), in.args[7]);
  const kernels::ConvGrads d =
      kernels::conv_transpose_backward(in.grads[0], input, weight, g, wants_grad(in.args[0]),
                                       wants_grad(in.args[1]), wants_grad(in.args[2]));
  ValueList out(in.args.size());
  if (d.input.defined()) out[0] = IValue(d.input);
  if (d.weight.defined()) out[1] = IValue(d.weight);
  if (d.bias.defined()) out[2] = IValue(d.bias);
  return out;
}

Derivative resample_grad(const char* op) {
  return [op](In in) {
    const Tensor input = tensor_of(in.args[0]);
    const kernels::ResampleGeometry g = kernels::resample_geometry(op, in.args);
    return first_only(in, kernels::resample_backward(in.grads[0], g, input.shape()));
  };
}

ValueList pad_grad(In in) {
  const Tensor input = tensor_of(in.args[0]);
  const kernels::PadPlan plan =
      kernels::pad_plan(input, in.args[1].to_int_list(), in.args[2].to_string(), in.args[3]);
  Tensor out = Tensor::zeros(input.shape());
  const Tensor g = in.grads[0].to(DType::Float32);
  const float* pg = g.data<float>();
  float* po = out.data<float>();
  for (size_t k = 0; k < plan.source.size(); ++k) {
    if (plan.source[k] >= 0) po[plan.source[k]] += pg[k];
  }
  return first_only(in, out);
}

}  // namespace

void register_derivatives_resize(OpRegistry& r) {
  // Transposed convolution reads its input and weight; the rest read shapes only.
  const SavedData conv_saved = SavedData::args({0, 1});
  r.set_derivative(
      "aten::conv_transpose1d", [](In in) { return conv_transpose_grad(in, 1); }, conv_saved);
  r.set_derivative(
      "aten::conv_transpose2d.input", [](In in) { return conv_transpose_grad(in, 2); }, conv_saved);
  for (const char* op :
       {"upsample_nearest1d", "upsample_nearest2d", "upsample_linear1d", "upsample_bilinear2d"}) {
    r.set_derivative(std::string("aten::") + op + ".vec", resample_grad(op), SavedData::nothing());
  }
  for (const char* op : {"upsample_bicubic2d", "upsample_trilinear3d"}) {
    r.set_derivative(
        std::string("aten::") + op + ".vec",
        [op](In in) {
          return first_only(in,
                            kernels::tap_backward(in.grads[0], kernels::tap_geometry(op, in.args)));
        },
        SavedData::nothing());
  }
  r.set_derivative(
      "aten::__interpolate",
      [](In in) {
        return first_only(
            in, kernels::interpolate_backward(in.grads[0], kernels::interpolate_plan(in.args)));
      },
      SavedData::nothing());
  r.set_derivative(
      "aten::pixel_shuffle",
      [](In in) {
        return first_only(in, kernels::pixel_shuffle(in.grads[0], in.args[1].to_int(), false));
      },
      SavedData::nothing());
  r.set_derivative(
      "aten::pixel_unshuffle",
      [](In in) {
        return first_only(in, kernels::pixel_shuffle(in.grads[0], in.args[1].to_int(), true));
      },
      SavedData::nothing());
  r.set_derivative("aten::pad", pad_grad, SavedData::nothing());
}

}  // namespace d2s::grad
