// Derivatives of the binary elementwise ops (core/ops/kernels_elementwise.cpp).
// Broadcast gradients are summed back to each argument's shape (grad_for).
#include <cmath>

#include "core/autograd/derivatives_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

// PyTorch's maximum/minimum backward: the winner gets the gradient, a tie splits it.
ValueList extreme_pair(In in, bool largest) {
  const Tensor a = tensor_of(in.args[0]);
  const Tensor b = tensor_of(in.args[1]);
  const Shape& s = in.grads[0].shape();
  const Tensor ea = op("aten::expand", {IValue(a.to(DType::Float32)), IValue::int_list(s)});
  const Tensor eb = op("aten::expand", {IValue(b.to(DType::Float32)), IValue::int_list(s)});
  auto share = [largest](float g, float x, float y) {
    if (x == y) return g / 2;
    return (largest ? x > y : x < y) ? g : 0.0f;
  };
  Tensor ga = map3(in.grads[0], ea, eb, share);
  Tensor gb = map3(in.grads[0], eb, ea, share);
  return {grad_for(in.args[0], ga), grad_for(in.args[1], gb)};
}

ValueList add_like(In in, double self_sign, double other_sign) {
  const double alpha = number_of(in.args[2]);
  const Tensor& g = in.grads[0];
  return {grad_for(in.args[0], self_sign == 1 ? g : scale(g, self_sign * alpha)),
          grad_for(in.args[1], other_sign == 1 ? g : scale(g, other_sign * alpha)), IValue()};
}

ValueList add_grad(In in) {
  const double alpha = number_of(in.args[2]);
  const Tensor& g = in.grads[0];
  return {grad_for(in.args[0], g), grad_for(in.args[1], alpha == 1 ? g : scale(g, alpha)),
          IValue()};
}

ValueList sub_grad(In in) {
  return add_like(in, 1, -1);
}

ValueList mul_grad(In in) {
  const Tensor& g = in.grads[0];
  IValue ga =
      wants_grad(in.args[0]) ? grad_for(in.args[0], mul(g, tensor_of(in.args[1]))) : IValue();
  IValue gb =
      wants_grad(in.args[1]) ? grad_for(in.args[1], mul(g, tensor_of(in.args[0]))) : IValue();
  return {ga, gb};
}

ValueList div_grad(In in) {
  const Tensor& g = in.grads[0];
  const Tensor b = tensor_of(in.args[1]);
  IValue ga = wants_grad(in.args[0]) ? grad_for(in.args[0], div(g, b)) : IValue();
  IValue gb = wants_grad(in.args[1]) ? grad_for(in.args[1], neg(div(mul(g, result_tensor(in)), b)))
                                     : IValue();
  return {ga, gb};
}

// Rounding ops have gradient zero almost everywhere, as PyTorch defines them.
ValueList zero_grad(In in) {
  ValueList out;
  for (const IValue& a : in.args) {
    out.push_back(wants_grad(a) ? IValue(Tensor::zeros(a.to_tensor().shape())) : IValue());
  }
  return out;
}

ValueList remainder_grad(In in) {
  const Tensor& g = in.grads[0];
  IValue gb;
  if (wants_grad(in.args[1])) {
    Tensor q = op("aten::floor", {IValue(op("aten::div", {in.args[0], in.args[1]}))});
    gb = grad_for(in.args[1], neg(mul(g, q)));
  }
  return {grad_for(in.args[0], g), gb};
}

ValueList pow_grad(In in) {
  const Tensor& g = in.grads[0];
  const Tensor x = tensor_of(in.args[0]).to(DType::Float32);
  const Tensor p = tensor_of(in.args[1]).to(DType::Float32);
  const Shape& s = g.shape();
  const Tensor ex = op("aten::expand", {IValue(x), IValue::int_list(s)});
  const Tensor ep = op("aten::expand", {IValue(p), IValue::int_list(s)});
  IValue ga, gb;
  if (wants_grad(in.args[0])) {
    ga = grad_for(in.args[0], map3(g, ex, ep, [](float gi, float xi, float pi) {
                    return pi == 0 ? 0.0f : gi * pi * std::pow(xi, pi - 1);
                  }));
  }
  if (wants_grad(in.args[1])) {
    gb = grad_for(in.args[1], map3(g, ex, result_tensor(in), [](float gi, float xi, float yi) {
                    return xi == 0 ? 0.0f : gi * yi * std::log(xi);
                  }));
  }
  return {ga, gb};
}

ValueList where_grad(In in) {
  const Tensor& g = in.grads[0];
  const Tensor zero = Tensor::scalar(0.0);
  IValue ga, gb;
  if (wants_grad(in.args[1])) {
    ga = grad_for(in.args[1], op("aten::where", {in.args[0], IValue(g), IValue(zero)}));
  }
  if (wants_grad(in.args[2])) {
    gb = grad_for(in.args[2], op("aten::where", {in.args[0], IValue(zero), IValue(g)}));
  }
  return {IValue(), ga, gb};
}

ValueList masked_fill_grad(In in) {
  Tensor g = op("aten::masked_fill", {IValue(in.grads[0]), in.args[1], IValue(0.0)});
  return {grad_for(in.args[0], g), IValue(), IValue()};
}

}  // namespace

void register_derivatives_elementwise(OpRegistry& r) {
  // What each formula reads (SavedData): sums read shapes only; a product reads both
  // factors; a quotient the divisor and the result. An in-place form's self is the
  // value before the write (core/autograd/autograd.cpp keeps a copy when it is read).
  const SavedData nothing = SavedData::nothing();
  r.set_derivative("aten::add.Tensor", add_grad, nothing);
  r.set_derivative("aten::add_.Tensor", add_grad, nothing);
  r.set_derivative("aten::sub.Tensor", sub_grad, nothing);
  r.set_derivative("aten::sub_.Tensor", sub_grad, nothing);
  r.set_derivative(
      "aten::rsub.Tensor", [](In in) { return add_like(in, -1, 1); }, nothing);
  r.set_derivative("aten::mul.Tensor", mul_grad, SavedData::args({0, 1}));
  r.set_derivative("aten::mul_.Tensor", mul_grad, SavedData::args({0, 1}));
  r.set_derivative("aten::div.Tensor", div_grad, SavedData::args({1}, /*result=*/true));
  r.set_derivative("aten::div_.Tensor", div_grad, SavedData::args({1}, /*result=*/true));
  r.set_derivative("aten::div.Tensor_mode", zero_grad);
  r.set_derivative("aten::floor_divide", zero_grad);
  r.set_derivative("aten::remainder.Tensor", remainder_grad);
  r.set_derivative("aten::pow.Tensor_Tensor", pow_grad);
  r.set_derivative("aten::maximum", [](In in) { return extreme_pair(in, true); });
  r.set_derivative("aten::minimum", [](In in) { return extreme_pair(in, false); });
  r.set_derivative("aten::max.other", [](In in) { return extreme_pair(in, true); });
  r.set_derivative("aten::min.other", [](In in) { return extreme_pair(in, false); });
  r.set_derivative("aten::where.self", where_grad);
  r.set_derivative("aten::masked_fill.Scalar", masked_fill_grad);
}

}  // namespace d2s::grad
