// Unary elementwise tensor ops and clamp. Math functions compute in float32,
// turning integer and bool inputs into float32 first, as PyTorch does; the
// sign-like ops (neg, abs, sign, floor, ...) keep the input dtype.
#include <Eigen/Core>
#include <cmath>

#include "core/ops/kernels.h"
#include "core/ops/kernels_fast.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

// exp, log, ...: float32 in, float32 out; into `reuse` when it is defined (a dead
// float32 argument: reusable_arg).
template <typename F>
Tensor float_unary(const Tensor& self, F f, Tensor reuse = Tensor()) {
  const Tensor x = as_dtype(self, DType::Float32);
  Tensor out = reuse.defined() ? reuse : Tensor::empty(x.shape(), DType::Float32);
  unary_loop<float, float>(x, out, f);
  return out;
}

// neg, abs, ...: same dtype in and out; f is a generic lambda. Into `reuse` when
// it is defined (a dead argument: reusable_arg).
template <typename F>
Tensor same_unary(const Tensor& x, F f, Tensor reuse = Tensor()) {
  Tensor out = reuse.defined() ? reuse : Tensor::empty(x.shape(), x.dtype());
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    unary_loop<T, T>(x, out, [&](T v) { return static_cast<T>(f(v)); });
  });
  return out;
}

float sigmoid(float x) {
  return 1.0f / (1.0f + std::exp(-x));
}

struct FloatFn {
  const char* name;
  float (*fn)(float);
  OpTags tags = {};  // besides pointwise and float-promoting
};

// The float32 functions, each registered as aten::<name>(Tensor self).
const FloatFn kFloatFns[] = {
    {"exp", [](float x) { return std::exp(x); }},
    {"exp2", [](float x) { return std::exp2(x); }, OpTag::NoOnnx},
    {"expm1", [](float x) { return std::expm1(x); }},
    {"log", [](float x) { return std::log(x); }},
    {"log2", [](float x) { return std::log2(x); }},
    {"log10", [](float x) { return std::log10(x); }},
    {"log1p", [](float x) { return std::log1p(x); }},
    {"sqrt", [](float x) { return std::sqrt(x); }},
    {"rsqrt", [](float x) { return 1.0f / std::sqrt(x); }},
    {"sin", [](float x) { return std::sin(x); }},
    {"cos", [](float x) { return std::cos(x); }},
    {"tan", [](float x) { return std::tan(x); }},
    {"asin", [](float x) { return std::asin(x); }},
    {"acos", [](float x) { return std::acos(x); }},
    {"atan", [](float x) { return std::atan(x); }},
    {"sinh", [](float x) { return std::sinh(x); }},
    {"cosh", [](float x) { return std::cosh(x); }},
    {"erf", [](float x) { return std::erf(x); }},
    {"sigmoid", sigmoid},
    {"reciprocal", [](float x) { return 1.0f / x; }},
};

// tanh through Eigen's vectorised rational approximation, within a few ULP of
// std::tanh (PyTorch's own CPU tanh is a vectorised approximation too): a scalar
// tanhf per element was a fifth of the RNN benchmark's time. Blocks of 8 as
// fixed-size arrays: on a dynamic-size map Eigen first steps element by element to
// an address aligned for the widest packet (64 bytes with AVX-512), which for a
// tensor of 16 floats meant no packet at all.
Tensor vector_tanh(const Tensor& self, Tensor reuse) {
  const Tensor x = as_dtype(self, DType::Float32);
  Tensor out = reuse.defined() ? reuse : Tensor::empty(x.shape(), DType::Float32);
  const int64_t n = x.numel();
  const float* px = x.data<float>();
  float* po = out.data<float>();
  using Block8 = Eigen::Array<float, 8, 1>;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    Eigen::Map<Block8>(po + i) = Eigen::Map<const Block8>(px + i).tanh();
  }
  if (i < n) {
    const Eigen::Index rest = static_cast<Eigen::Index>(n - i);
    Eigen::Map<Eigen::ArrayXf>(po + i, rest) =
        Eigen::Map<const Eigen::ArrayXf>(px + i, rest).tanh();
  }
  return out;
}

Tensor neg(const Tensor& x, Tensor reuse) {
  if (x.dtype() == DType::Bool) {
    fail(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
        "invert a mask, use the `~` or `logical_not()` operator instead.");
  }
  return same_unary(
      x, [](auto v) { return -v; }, std::move(reuse));
}

Tensor abs(const Tensor& x) {
  if (x.dtype() == DType::Bool) fail("\"abs_cpu\" not implemented for 'Bool'");
  return same_unary(x, [](auto v) {
    if constexpr (std::is_same_v<decltype(v), bool>)
      return v;  // rejected above
    else
      return v < 0 ? -v : v;
  });
}

Tensor sign(const Tensor& x) {
  return same_unary(x, [](auto v) {
    using T = decltype(v);
    if constexpr (std::is_same_v<T, float>) {
      if (std::isnan(v)) return v;
    }
    return static_cast<T>((T(0) < v) - (v < T(0)));
  });
}

// floor/ceil/round/trunc: identity on integers, as in PyTorch 1.13.
template <typename F>
Tensor rounding(const Tensor& x, F f) {
  if (x.dtype() != DType::Float32) return x.clone();
  return float_unary(x, f);
}

Tensor relu(const Tensor& x, Tensor reuse) {
  if (x.dtype() == DType::Bool) fail("\"clamp_min_cpu\" not implemented for 'Bool'");
  // `v < 0 ? 0 : v` keeps NaN, as PyTorch's clamp_min(x, 0) does.
  return same_unary(
      x,
      [](auto v) {
        if constexpr (std::is_same_v<decltype(v), bool>)
          return v;  // rejected above
        else
          return v < 0 ? decltype(v)(0) : v;
      },
      std::move(reuse));
}

Tensor square(const Tensor& x) {
  // square(x) is pow(x, 2): bool becomes int64 (the exponent's category).
  const Tensor y = x.dtype() == DType::Bool ? x.to(DType::Int64) : x;
  return same_unary(y, [](auto v) { return v * v; });
}

Tensor logical_not(const Tensor& x) {
  const Tensor b = as_dtype(x, DType::Bool);
  Tensor out = Tensor::empty(x.shape(), DType::Bool);
  unary_loop<bool, bool>(b, out, [](bool v) { return !v; });
  return out;
}

Tensor bitwise_not(const Tensor& x) {
  if (x.dtype() == DType::Float32) fail("\"bitwise_not_cpu\" not implemented for 'Float'");
  if (x.dtype() == DType::Bool) return logical_not(x);
  return same_unary(x, [](auto v) {
    if constexpr (std::is_same_v<decltype(v), int64_t>)
      return ~v;
    else
      return v;  // bool and float were handled above
  });
}

// clamp as maximum then minimum, which gives PyTorch's promotion (an int tensor
// clamped by 0.5 is float) and its min > max behaviour (the result is max).
Tensor clamp(const IValue& self, const IValue& lo, const IValue& hi) {
  if (lo.is_none() && hi.is_none()) {
    fail("torch.clamp: At least one of 'min' or 'max' must not be None");
  }
  Tensor x = tensor_arg(self);
  if (x.dtype() == DType::Bool && result_type(self, lo.is_none() ? hi : lo) == DType::Bool) {
    fail("\"clamp_cpu\" not implemented for 'Bool'");
  }
  if (!lo.is_none()) x = binary_op(BinaryOp::Maximum, IValue(x), lo);
  if (!hi.is_none()) x = binary_op(BinaryOp::Minimum, IValue(x), hi);
  return x;
}

}  // namespace

// The executor's direct entries (kernels_fast.h): the registered kernels below, on a
// float32 tensor.
namespace {
bool float_tensor(const IValue& v) {
  return v.is_tensor() && v.to_tensor().defined() && v.to_tensor().dtype() == DType::Float32;
}
}  // namespace

bool fast_tanh(const IValue& a, const IValue*, uint32_t dead, Tensor& out) {
  if (!float_tensor(a)) return false;
  out = vector_tanh(a.to_tensor(), reusable_value(a, dead & 1u, DType::Float32));
  return true;
}

bool fast_relu(const IValue& a, const IValue*, uint32_t dead, Tensor& out) {
  if (!float_tensor(a)) return false;
  out = relu(a.to_tensor(), reusable_value(a, dead & 1u));
  return true;
}

bool fast_sigmoid(const IValue& a, const IValue*, uint32_t dead, Tensor& out) {
  if (!float_tensor(a)) return false;
  out = float_unary(a.to_tensor(), sigmoid, reusable_value(a, dead & 1u, DType::Float32));
  return true;
}

void register_unary(OpRegistry& r) {
  using A = const ValueList&;
  for (const FloatFn& f : kFloatFns) {
    float (*fn)(float) = f.fn;
    r.add(
        std::string("aten::") + f.name + "(Tensor self) -> Tensor",
        [fn](OpContext& ctx, A a) {
          Tensor reuse = reusable_arg(ctx, a, 0, DType::Float32);
          return tv(float_unary(tensor_arg(a[0]), fn, std::move(reuse)));
        },
        OpTag::Pointwise | OpTag::FloatPromoting | f.tags);
  }
  r.add(
      "aten::tanh(Tensor self) -> Tensor",
      [](OpContext& ctx, A a) {
        Tensor reuse = reusable_arg(ctx, a, 0, DType::Float32);
        return tv(vector_tanh(tensor_arg(a[0]), std::move(reuse)));
      },
      OpTag::Pointwise | OpTag::FloatPromoting);
  r.add(
      "aten::neg(Tensor self) -> Tensor",
      [](OpContext& ctx, A a) {
        Tensor reuse = reusable_arg(ctx, a, 0);
        return tv(neg(tensor_arg(a[0]), std::move(reuse)));
      },
      OpTag::Pointwise);
  r.add(
      "aten::abs(Tensor self) -> Tensor", [](OpContext&, A a) { return tv(abs(tensor_arg(a[0]))); },
      OpTag::Pointwise);
  r.add(
      "aten::sign(Tensor self) -> Tensor",
      [](OpContext&, A a) { return tv(sign(tensor_arg(a[0]))); }, OpTag::Pointwise);
  r.add(
      "aten::square(Tensor self) -> Tensor",
      [](OpContext&, A a) { return tv(square(tensor_arg(a[0]))); }, OpTag::Pointwise);
  r.add(
      "aten::relu(Tensor self) -> Tensor",
      [](OpContext& ctx, A a) {
        Tensor reuse = reusable_arg(ctx, a, 0);
        return tv(relu(tensor_arg(a[0]), std::move(reuse)));
      },
      OpTag::Pointwise);
  r.add(
      "aten::floor(Tensor self) -> Tensor",
      [](OpContext&, A a) {
        return tv(rounding(tensor_arg(a[0]), [](float v) { return std::floor(v); }));
      },
      OpTag::Pointwise);
  r.add(
      "aten::ceil(Tensor self) -> Tensor",
      [](OpContext&, A a) {
        return tv(rounding(tensor_arg(a[0]), [](float v) { return std::ceil(v); }));
      },
      OpTag::Pointwise);
  r.add(
      "aten::trunc(Tensor self) -> Tensor",
      [](OpContext&, A a) {
        return tv(rounding(tensor_arg(a[0]), [](float v) { return std::trunc(v); }));
      },
      OpTag::Pointwise | OpTag::NoOnnx);
  r.add(
      "aten::round(Tensor self) -> Tensor",
      [](OpContext&, A a) {
        // Half to even, like torch.round (nearbyint in the default rounding mode).
        return tv(rounding(tensor_arg(a[0]), [](float v) { return std::nearbyint(v); }));
      },
      OpTag::Pointwise);
  r.add(
      "aten::round.decimals(Tensor self, *, int decimals) -> Tensor",
      [](OpContext&, A a) {
        // PyTorch's round_decimals: scale by 10^|decimals| in float32, round, scale back.
        const int64_t d = a[1].to_int();
        const float p = static_cast<float>(std::pow(10.0, static_cast<double>(d < 0 ? -d : d)));
        return tv(rounding(tensor_arg(a[0]), [d, p](float v) {
          return d < 0 ? std::nearbyint(v / p) * p : std::nearbyint(v * p) / p;
        }));
      },
      OpTag::Pointwise);
  r.add(
      "aten::logical_not(Tensor self) -> Tensor",
      [](OpContext&, A a) { return tv(logical_not(tensor_arg(a[0]))); },
      OpTag::Pointwise | OpTag::NoDerivative);
  r.add(
      "aten::bitwise_not(Tensor self) -> Tensor",
      [](OpContext&, A a) { return tv(bitwise_not(tensor_arg(a[0]))); },
      OpTag::Pointwise | OpTag::NoDerivative);
  r.add(
      "aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
      [](OpContext&, A a) { return tv(clamp(a[0], a[1], a[2])); }, OpTag::Pointwise);
  r.add(
      "aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
      [](OpContext&, A a) { return tv(clamp(a[0], a[1], a[2])); }, OpTag::Pointwise);
  r.add(
      "aten::clamp_min(Tensor self, Scalar min) -> Tensor",
      [](OpContext&, A a) { return tv(clamp(a[0], a[1], IValue())); }, OpTag::Pointwise);
  r.add(
      "aten::clamp_max(Tensor self, Scalar max) -> Tensor",
      [](OpContext&, A a) { return tv(clamp(a[0], IValue(), a[1])); }, OpTag::Pointwise);
  // The in-place forms: the out-of-place result written back into self.
  r.add("aten::relu_(Tensor(a!) self) -> Tensor(a!)",
        [](OpContext&, A a) { return tv(write_in_place(a[0], relu(tensor_arg(a[0]), Tensor()))); });
  r.add("aten::clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)",
        [](OpContext&, A a) { return tv(write_in_place(a[0], clamp(a[0], a[1], a[2]))); });
}

}  // namespace d2s::kernels
