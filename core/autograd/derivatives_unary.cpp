// Derivatives of the unary ops (core/ops/kernels_unary.cpp): one pointwise formula
// each, of the gradient g, the input x and the result y.
#include <cmath>

#include "core/autograd/derivatives_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;
using Pointwise = float (*)(float g, float x, float y);

struct UnaryGrad {
  const char* op;
  SavedData saved;  // what f reads: x (argument 0), y (the result), neither or both
  Pointwise f;
};

constexpr float kLn2 = 0.69314718056f;
constexpr float kLn10 = 2.302585093f;
constexpr float kTwoOverSqrtPi = 1.1283791671f;

const UnaryGrad kUnaryGrads[] = {
    {"aten::exp", SavedData::result_only(), [](float g, float, float y) { return g * y; }},
    {"aten::exp2", SavedData::result_only(), [](float g, float, float y) { return g * y * kLn2; }},
    {"aten::expm1", SavedData::result_only(), [](float g, float, float y) { return g * (y + 1); }},
    {"aten::log", SavedData::args({0}), [](float g, float x, float) { return g / x; }},
    {"aten::log2", SavedData::args({0}), [](float g, float x, float) { return g / (x * kLn2); }},
    {"aten::log10", SavedData::args({0}), [](float g, float x, float) { return g / (x * kLn10); }},
    {"aten::log1p", SavedData::args({0}), [](float g, float x, float) { return g / (1 + x); }},
    {"aten::sqrt", SavedData::result_only(), [](float g, float, float y) { return g / (2 * y); }},
    {"aten::rsqrt", SavedData::result_only(),
     [](float g, float, float y) { return -0.5f * g * y * y * y; }},
    {"aten::sin", SavedData::args({0}), [](float g, float x, float) { return g * std::cos(x); }},
    {"aten::cos", SavedData::args({0}), [](float g, float x, float) { return -g * std::sin(x); }},
    {"aten::tan", SavedData::result_only(),
     [](float g, float, float y) { return g * (1 + y * y); }},
    {"aten::asin", SavedData::args({0}),
     [](float g, float x, float) { return g / std::sqrt(1 - x * x); }},
    {"aten::acos", SavedData::args({0}),
     [](float g, float x, float) { return -g / std::sqrt(1 - x * x); }},
    {"aten::atan", SavedData::args({0}), [](float g, float x, float) { return g / (1 + x * x); }},
    {"aten::sinh", SavedData::args({0}), [](float g, float x, float) { return g * std::cosh(x); }},
    {"aten::cosh", SavedData::args({0}), [](float g, float x, float) { return g * std::sinh(x); }},
    {"aten::tanh", SavedData::result_only(),
     [](float g, float, float y) { return g * (1 - y * y); }},
    {"aten::erf", SavedData::args({0}),
     [](float g, float x, float) { return g * kTwoOverSqrtPi * std::exp(-x * x); }},
    {"aten::sigmoid", SavedData::result_only(),
     [](float g, float, float y) { return g * y * (1 - y); }},
    {"aten::reciprocal", SavedData::result_only(),
     [](float g, float, float y) { return -g * y * y; }},
    {"aten::neg", SavedData::nothing(), [](float g, float, float) { return -g; }},
    {"aten::abs", SavedData::args({0}),
     [](float g, float x, float) { return x > 0   ? g
                                          : x < 0 ? -g
                                                  : 0.0f; }},
    {"aten::square", SavedData::args({0}), [](float g, float x, float) { return 2 * g * x; }},
    {"aten::relu", SavedData::result_only(),
     [](float g, float, float y) { return y > 0 ? g : 0.0f; }},
    // In place, as relu: the derivative reads the result, so self's old value is not kept.
    {"aten::relu_", SavedData::result_only(),
     [](float g, float, float y) { return y > 0 ? g : 0.0f; }},
    // Steps: zero almost everywhere, as PyTorch defines them.
    {"aten::sign", SavedData::nothing(), [](float, float, float) { return 0.0f; }},
    {"aten::floor", SavedData::nothing(), [](float, float, float) { return 0.0f; }},
    {"aten::ceil", SavedData::nothing(), [](float, float, float) { return 0.0f; }},
    {"aten::trunc", SavedData::nothing(), [](float, float, float) { return 0.0f; }},
    {"aten::round", SavedData::nothing(), [](float, float, float) { return 0.0f; }},
    {"aten::round.decimals", SavedData::nothing(), [](float, float, float) { return 0.0f; }},
};

// The gradient flows where min <= x <= max (bounds None: unbounded), as PyTorch's
// clamp_backward masks it.
ValueList clamp_grad(In in) {
  const Tensor& g = in.grads[0];
  if (!wants_grad(in.args[0])) return {IValue(), IValue(), IValue()};
  const IValue& lo = in.args[1];
  const IValue& hi = in.args[2];
  const Shape& s = g.shape();
  auto bound = [&](const IValue& b, double none_value) {
    Tensor t = b.is_none() ? Tensor::scalar(none_value) : tensor_of(b).to(DType::Float32);
    return op("aten::expand", {IValue(t), IValue::int_list(s)});
  };
  const Tensor x = in.args[0].to_tensor();
  const Tensor elo = bound(lo, -INFINITY);
  const Tensor ehi = bound(hi, INFINITY);
  const Tensor inside = map3(
      x, elo, ehi, [](float xi, float l, float h) { return xi >= l && xi <= h ? 1.0f : 0.0f; });
  IValue g_lo, g_hi;
  if (wants_grad(lo)) {
    g_lo = grad_for(
        lo, map3(g, x, elo, [](float gi, float xi, float l) { return xi < l ? gi : 0.0f; }));
  }
  if (wants_grad(hi)) {
    g_hi = grad_for(
        hi, map3(g, x, ehi, [](float gi, float xi, float h) { return xi > h ? gi : 0.0f; }));
  }
  return {IValue(mul(g, inside)), g_lo, g_hi};
}

ValueList clamp_side_grad(In in, bool is_min) {
  const double b = number_of(in.args[1]);
  Tensor gx = map3(in.grads[0], in.args[0].to_tensor(), Tensor(),
                   [=](float g, float x, float) { return (is_min ? x >= b : x <= b) ? g : 0.0f; });
  return {IValue(gx), IValue()};
}

}  // namespace

void register_derivatives_unary(OpRegistry& r) {
  for (const UnaryGrad& u : kUnaryGrads) {
    Pointwise f = u.f;
    const SavedData saved = u.saved;
    r.set_derivative(
        u.op,
        [f](In in) {
          ValueList out(in.args.size());
          if (!wants_grad(in.args[0])) return out;
          out[0] = IValue(map3(in.grads[0], in.args[0].to_tensor(), result_tensor(in), f));
          return out;
        },
        saved);
  }
  r.set_derivative("aten::clamp_", clamp_grad, SavedData::args({0, 1, 2}));
  r.set_derivative("aten::clamp", clamp_grad);
  r.set_derivative("aten::clamp.Tensor", clamp_grad);
  r.set_derivative("aten::clamp_min", [](In in) { return clamp_side_grad(in, true); });
  r.set_derivative("aten::clamp_max", [](In in) { return clamp_side_grad(in, false); });
}

}  // namespace d2s::grad
