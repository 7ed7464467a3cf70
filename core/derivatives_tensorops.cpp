// Derivatives of core/kernels_tensorops.cpp: baddbmm (beta * g to self, alpha * the
// bmm gradients to the batches) and fmod (g to self; -g * trunc(self / other) to other,
// PyTorch's formula).
#include "core/derivatives_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

ValueList baddbmm_grad(In in) {
  const Tensor& g = in.grads[0];
  const double beta = number_of(in.args[3]), alpha = number_of(in.args[4]);
  const Tensor b1 = tensor_of(in.args[1]), b2 = tensor_of(in.args[2]);
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], scale(g, beta));
  if (wants_grad(in.args[1])) {
    out[1] = IValue(scale(op("aten::bmm", {IValue(g), IValue(transpose_last(b2))}), alpha));
  }
  if (wants_grad(in.args[2])) {
    out[2] = IValue(scale(op("aten::bmm", {IValue(transpose_last(b1)), IValue(g)}), alpha));
  }
  return out;
}

ValueList fmod_grad(In in) {
  const Tensor& g = in.grads[0];
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], g);
  if (wants_grad(in.args[1])) {
    const Tensor q = op("aten::trunc", {IValue(div(tensor_of(in.args[0]), tensor_of(in.args[1])))});
    out[1] = grad_for(in.args[1], neg(mul(g, q)));
  }
  return out;
}

}  // namespace

void register_derivatives_tensorops(OpRegistry& r) {
  r.set_derivative("aten::baddbmm", baddbmm_grad, SavedData::args({1, 2}));
  r.set_derivative("aten::fmod.Tensor", fmod_grad, SavedData::args({0, 1}));
  r.set_derivative("aten::fmod.Scalar", fmod_grad, SavedData::nothing());
}

}  // namespace d2s::grad
