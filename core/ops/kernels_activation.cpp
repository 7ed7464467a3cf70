// Activations beyond kernels_nn.cpp: hardtanh (and relu6, its [0, 6] case), elu (with
// PyTorch's scale and input_scale) and selu, float32 only, with their derivatives in
// derivatives_activation.cpp.
#include <cmath>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

// SELU's constants as PyTorch writes them (torch/csrc/.../Activation.cpp).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

template <typename F>
IValue map_float(const IValue& self, const char* kernel, F f) {
  const Tensor x = tensor_arg(self);
  if (x.dtype() != DType::Float32) {
    fail(std::string("\"") + kernel + "\" not implemented for '" + dtype_word(x.dtype()) + "'");
  }
  Tensor out = Tensor::empty(x.shape(), DType::Float32);
  unary_loop<float, float>(x, out, f);
  return IValue(out);
}

IValue hardtanh(const IValue& self, double lo, double hi) {
  if (lo > hi) fail("min_val cannot be greater than max_val");
  const float l = static_cast<float>(lo), h = static_cast<float>(hi);
  return map_float(self, "hardtanh_cpu", [=](float v) { return v < l ? l : v > h ? h : v; });
}

IValue elu(const IValue& self, double alpha, double scale, double input_scale) {
  const float a = static_cast<float>(alpha), s = static_cast<float>(scale),
              is = static_cast<float>(input_scale);
  return map_float(self, "elu_cpu",
                   [=](float v) { return v > 0 ? v * s : std::expm1(v * is) * a * s; });
}

}  // namespace

void register_activation(OpRegistry& r) {
  using A = const ValueList&;
  r.add(
      "aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
      [](OpContext&, A a) { return hardtanh(a[0], a[1].to_double(), a[2].to_double()); },
      OpTag::Pointwise);
  r.add(
      "aten::relu6(Tensor self) -> Tensor",
      [](OpContext&, A a) { return hardtanh(a[0], 0.0, 6.0); }, OpTag::Pointwise);
  r.add(
      "aten::elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor",
      [](OpContext&, A a) {
        return elu(a[0], a[1].to_double(), a[2].to_double(), a[3].to_double());
      },
      OpTag::Pointwise);
  r.add(
      "aten::selu(Tensor self) -> Tensor",
      [](OpContext&, A a) { return elu(a[0], kSeluAlpha, kSeluScale, 1.0); }, OpTag::Pointwise);
}

}  // namespace d2s::kernels
