// Derivatives of the activations of core/ops/kernels_activation.cpp, at the kinks as
// PyTorch 1.13's CPU kernels take them: hardtanh passes the gradient strictly inside
// (min_val, max_val) only; elu uses its x <= 0 side at 0.
#include <cmath>

#include "core/autograd/derivatives_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

ValueList hardtanh_grad(In in, double lo, double hi) {
  const float l = static_cast<float>(lo), h = static_cast<float>(hi);
  return first_only(in, map3(in.grads[0], tensor_of(in.args[0]), Tensor(),
                             [=](float g, float x, float) { return x <= l || x >= h ? 0.0f : g; }));
}

ValueList elu_grad(In in, double alpha, double scale, double input_scale) {
  const float a = static_cast<float>(alpha), s = static_cast<float>(scale),
              is = static_cast<float>(input_scale);
  return first_only(
      in, map3(in.grads[0], tensor_of(in.args[0]), Tensor(), [=](float g, float x, float) {
        return x > 0 ? g * s : g * is * a * s * std::exp(x * is);
      }));
}

}  // namespace

void register_derivatives_activation(OpRegistry& r) {
  const SavedData input = SavedData::args({0});
  r.set_derivative(
      "aten::hardtanh",
      [](In in) { return hardtanh_grad(in, number_of(in.args[1]), number_of(in.args[2])); }, input);
  r.set_derivative(
      "aten::relu6", [](In in) { return hardtanh_grad(in, 0.0, 6.0); }, input);
  r.set_derivative(
      "aten::elu",
      [](In in) {
        return elu_grad(in, number_of(in.args[1]), number_of(in.args[2]), number_of(in.args[3]));
      },
      input);
  r.set_derivative(
      "aten::selu", [](In in) { return elu_grad(in, kSeluAlpha, kSeluScale, 1.0); }, input);
}

}  // namespace d2s::grad
