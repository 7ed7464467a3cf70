// Derivatives of convolution and pooling (core/ops/kernels_conv.cpp, kernels_pool.cpp):
// the geometry is recomputed from the saved arguments and the kernels' own backward
// loops (col2im + GEMM, window scatter) give the gradients.
#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"
#include "core/ops/kernels_conv.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

ValueList conv_grad(In in, int spatial) {
  const Tensor input = tensor_of(in.args[0]);
  const Tensor weight = tensor_of(in.args[1]);
  const kernels::ConvGeometry g = kernels::conv_geometry(
      spatial, input, weight, in.args[2], in.args[3], in.args[4], in.args[5], in.args[6].to_int());
  const kernels::ConvGrads d =
      kernels::conv_backward(in.grads[0], input, weight, g, wants_grad(in.args[0]),
                             wants_grad(in.args[1]), wants_grad(in.args[2]));
  ValueList out(in.args.size());
  if (d.input.defined()) out[0] = IValue(d.input);
  if (d.weight.defined()) out[1] = IValue(d.weight);
  if (d.bias.defined()) out[2] = IValue(d.bias);
  return out;
}

Derivative pool_grad(const char* op) {
  return [op](In in) {
    const Tensor input = tensor_of(in.args[0]);
    const kernels::PoolGeometry g = kernels::pool_geometry(op, in.args);
    return first_only(in, kernels::pool_backward(in.grads[0], input, g));
  };
}

}  // namespace

void register_derivatives_conv(OpRegistry& r) {
  // Convolution reads its input and weight (not its result); pools read their input.
  const SavedData conv_saved = SavedData::args({0, 1});
  const SavedData pool_saved = SavedData::args({0});
  for (const char* name : {"aten::conv1d", "aten::conv1d.padding"}) {
    r.set_derivative(
        name, [](In in) { return conv_grad(in, 1); }, conv_saved);
  }
  for (const char* name : {"aten::conv2d", "aten::conv2d.padding"}) {
    r.set_derivative(
        name, [](In in) { return conv_grad(in, 2); }, conv_saved);
  }
  r.set_derivative("aten::max_pool1d", pool_grad("max_pool1d"), pool_saved);
  r.set_derivative("aten::max_pool2d", pool_grad("max_pool2d"), pool_saved);
  r.set_derivative("aten::max_pool2d_with_indices", pool_grad("max_pool2d"), pool_saved);
  r.set_derivative("aten::avg_pool1d", pool_grad("avg_pool1d"), pool_saved);
  r.set_derivative("aten::avg_pool2d", pool_grad("avg_pool2d"), pool_saved);
  r.set_derivative("aten::adaptive_avg_pool1d", pool_grad("adaptive_avg_pool1d"), pool_saved);
  r.set_derivative("aten::adaptive_avg_pool2d", pool_grad("adaptive_avg_pool2d"), pool_saved);
  r.set_derivative("aten::adaptive_max_pool2d", pool_grad("adaptive_max_pool2d"), pool_saved);
}

}  // namespace d2s::grad
