// Derivatives of core/ops/kernels_inplace.cpp's in-place forms, with what PyTorch 1.13 saves
// for each (derivatives.yaml): the activations whose in-place node reads the result
// (sigmoid_, tanh_, leaky_relu_, hardtanh_, relu6_, elu_, selu_) take it from the value
// written, so overwriting it again before backward is PyTorch's "modified by an inplace
// operation" error; silu_ and clamp_min_/clamp_max_ read self's value before the write
// (a private copy); dropout_ reads the mask it drew (a copy of the result). leaky_relu_
// and elu_ with a negative slope cannot be inverted from the result: PyTorch's error at
// backward.
#include <cmath>
#include <string>

#include "core/autograd/derivatives_util.h"
#include "core/base/error.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

ValueList hardtanh_from_result(In in, double lo, double hi) {
  const float l = static_cast<float>(lo), h = static_cast<float>(hi);
  return first_only(in, map3(in.grads[0], result_tensor(in), Tensor(),
                             [=](float g, float y, float) { return y <= l || y >= h ? 0.0f : g; }));
}

// PyTorch's elu_backward with is_result: x <= 0 is where y <= 0, and there
// d/dx = input_scale * (y + alpha * scale).
ValueList elu_from_result(In in, double alpha, double scale, double input_scale) {
  if (alpha < 0) {
    throw Error(
        "RuntimeError: In-place elu backward calculation is triggered with a negative slope "
        "which is not supported. This is caused by calling in-place forward function with a "
        "negative slope, please call out-of-place version instead.",
        SourceRange(), "call the out-of-place F.elu(x, alpha) (inplace=False)");
  }
  const float a = static_cast<float>(alpha), s = static_cast<float>(scale),
              is = static_cast<float>(input_scale);
  return first_only(
      in, map3(in.grads[0], result_tensor(in), Tensor(),
               [=](float g, float y, float) { return y <= 0 ? g * is * (y + a * s) : g * s; }));
}

ValueList leaky_relu_from_result(In in) {
  const double slope = number_of(in.args[1]);
  if (slope < 0) {
    throw Error(
        "RuntimeError: In-place leakyReLu backward calculation is triggered with a negative "
        "slope which is not supported. This is caused by calling in-place forward function "
        "with a negative slope, please call out-of-place version instead. File an issue at "
        "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
        "backward calculation with negative slope",
        SourceRange(), "call the out-of-place F.leaky_relu(x, negative_slope)");
  }
  const float k = static_cast<float>(slope);
  return first_only(in, map3(in.grads[0], result_tensor(in), Tensor(),
                             [k](float g, float y, float) { return y > 0 ? g : g * k; }));
}

// The out-of-place op's derivative, for an in-place form with the same arguments.
Derivative derivative_of(const OpRegistry& r, const char* op) {
  const OpDef* def = r.find_qualified(op);
  if (!def || !def->derivative) {
    throw Error(std::string("internal error: ") + op + " has no derivative", SourceRange());
  }
  return def->derivative;
}

}  // namespace

void register_derivatives_inplace(OpRegistry& r) {
  const SavedData result = SavedData::result_only();
  const SavedData self_before = SavedData::args({0});
  // sigmoid and tanh read only their result, in place as out of place.
  r.set_derivative("aten::sigmoid_", derivative_of(r, "aten::sigmoid"), result);
  r.set_derivative("aten::tanh_", derivative_of(r, "aten::tanh"), result);
  r.set_derivative("aten::clamp_min_", derivative_of(r, "aten::clamp_min"), self_before);
  r.set_derivative("aten::clamp_max_", derivative_of(r, "aten::clamp_max"), self_before);
  r.set_derivative("aten::silu_", derivative_of(r, "aten::silu"), self_before);
  r.set_derivative("aten::leaky_relu_", leaky_relu_from_result, result);
  r.set_derivative(
      "aten::hardtanh_",
      [](In in) { return hardtanh_from_result(in, number_of(in.args[1]), number_of(in.args[2])); },
      result);
  r.set_derivative(
      "aten::relu6_", [](In in) { return hardtanh_from_result(in, 0.0, 6.0); }, result);
  r.set_derivative(
      "aten::elu_",
      [](In in) {
        return elu_from_result(in, number_of(in.args[1]), number_of(in.args[2]),
                               number_of(in.args[3]));
      },
      result);
  r.set_derivative(
      "aten::selu_", [](In in) { return elu_from_result(in, kSeluAlpha, kSeluScale, 1.0); },
      result);
  // dropout's derivative reads the input and the result (where it is zero, dropped).
  // (run_op keeps a private copy of a random op's written result: core/autograd/autograd.cpp.)
  r.set_derivative("aten::dropout_", derivative_of(r, "aten::dropout"), SavedData::args({0}, true));
  r.set_derivative("aten::feature_dropout_", derivative_of(r, "aten::feature_dropout"),
                   SavedData::args({0}, true));
}

}  // namespace d2s::grad
