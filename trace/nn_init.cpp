// torch.nn.init: PyTorch 1.13's initialisers (uniform_, normal_, constant_, zeros_, ones_,
// eye_, dirac_, xavier_*, kaiming_*, trunc_normal_, orthogonal_), calculate_gain and
// _calculate_fan_in_and_fan_out, with PyTorch's fan computation, bounds and error
// messages. Every initialiser runs under no_grad, writes the tensor in place through the
// op path (aten::uniform_, aten::normal_, aten::fill_, aten::copy_: version counters and
// views as those ops keep them; draws from d2s's generator) and returns the tensor.
#include <Eigen/QR>
#include <cmath>
#include <iostream>
#include <string>

#include "core/autograd/autograd.h"
#include "trace/interp.h"
#include "trace/native_value.h"

namespace d2s::interp {

namespace {

const char* const kInitFunctions[] = {
    "uniform_",         "normal_",         "constant_",
    "zeros_",           "ones_",           "eye_",
    "dirac_",           "xavier_uniform_", "xavier_normal_",
    "kaiming_uniform_", "kaiming_normal_", "trunc_normal_",
    "orthogonal_",      "calculate_gain",  "_calculate_fan_in_and_fan_out"};

// PyTorch 1.13 still has the old names without the underscore, deprecated (a UserWarning).
const char* const kDeprecated[] = {
    "uniform",       "normal",          "constant",       "eye",       "dirac", "xavier_uniform",
    "xavier_normal", "kaiming_uniform", "kaiming_normal", "orthogonal"};

constexpr const char* kPrefix = "torch.nn.init.";

bool is_deprecated_name(const std::string& leaf) {
  for (const char* d : kDeprecated) {
    if (leaf == d) return true;
  }
  return false;
}

struct InitCall {
  Interpreter& in;
  std::string name;  // "xavier_uniform_"
  const SourceRange& range;

  [[noreturn]] void fail(const std::string& message) const { in.fail(message, range); }

  Tensor tensor(const IValue& v) const {
    if (!v.is_tensor()) {
      fail("AttributeError: '" + py_type_name(v) + "' object has no attribute '" +
           (name == "_calculate_fan_in_and_fan_out" ? std::string("dim") : std::string("shape")) +
           "'");
    }
    return v.to_tensor();
  }

  double number(const IValue& v, const char* what) const {
    std::optional<IValue> n = in.to_number(v, PyConversion::Scalar, range);
    if (!n) {
      fail(std::string("TypeError: nn.init.") + name + "(): " + what + " must be a number, not '" +
           py_type_name(v) + "'");
    }
    return n->to_double();
  }

  // The op on `self` under no_grad, as PyTorch's _no_grad_* helpers run it.
  IValue write(const char* op, ValueList args) const {
    NoGradGuard no_grad;
    return in.call_op(op, std::move(args), {}, range);
  }

  // _calculate_fan_in_and_fan_out: fan_in = size(1) * receptive field, fan_out = size(0) *
  // receptive field.
  std::pair<int64_t, int64_t> fans(const Tensor& t) const {
    if (t.dim() < 2) {
      fail(
          "ValueError: Fan in and fan out can not be computed for tensor with fewer than 2 "
          "dimensions");
    }
    int64_t receptive = 1;
    for (int64_t d = 2; d < t.dim(); ++d) receptive *= t.size(d);
    return {t.size(1) * receptive, t.size(0) * receptive};
  }

  // _calculate_correct_fan: mode.lower() must be 'fan_in' or 'fan_out'.
  int64_t correct_fan(const Tensor& t, const IValue& mode) const {
    if (!mode.is_string()) {
      fail("AttributeError: '" + py_type_name(mode) + "' object has no attribute 'lower'");
    }
    std::string m = mode.to_string();
    for (char& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (m != "fan_in" && m != "fan_out") {
      fail("ValueError: Mode " + m + " not supported, please use one of ['fan_in', 'fan_out']");
    }
    auto [fan_in, fan_out] = fans(t);
    return m == "fan_in" ? fan_in : fan_out;
  }

  // calculate_gain: an int 1 for the linear functions and sigmoid, a float otherwise.
  IValue gain(const IValue& nonlinearity, const IValue& param) const {
    const std::string n = nonlinearity.is_string() ? nonlinearity.to_string() : std::string();
    const bool is_str = nonlinearity.is_string();
    static const char* const kLinear[] = {
        "linear",           "conv1d",           "conv2d",           "conv3d",
        "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid"};
    if (is_str) {
      for (const char* l : kLinear) {
        if (n == l) return IValue(int64_t{1});
      }
      if (n == "tanh") return IValue(5.0 / 3);
      if (n == "relu") return IValue(std::sqrt(2.0));
      if (n == "selu") return IValue(3.0 / 4);
      if (n == "leaky_relu") {
        double slope = 0.01;
        if (param.is_int() || param.is_double()) {
          slope = param.to_double();
        } else if (!param.is_none()) {
          fail("ValueError: negative_slope " + in.py_str(param) + " not a valid number");
        }
        return IValue(std::sqrt(2.0 / (1 + slope * slope)));
      }
    }
    fail("ValueError: Unsupported nonlinearity " + in.py_str(nonlinearity));
  }

  static bool empty_shape(const Tensor& t) {
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (t.size(d) == 0) return true;
    }
    return false;
  }

  // A tensor of self's shape computed here, copied into self under no_grad.
  IValue overwrite(const IValue& self, const Tensor& value) const {
    write("aten::copy_", {self, IValue(value)});
    return self;
  }

  IValue dirac(const IValue& self, const IValue& groups_value) const {
    const Tensor t = tensor(self);
    const int64_t dims = t.dim();
    if (dims < 3 || dims > 5)
      fail("ValueError: Only tensors with 3, 4, or 5 dimensions are supported");
    const int64_t groups = in.to_index(groups_value, PyConversion::Scalar, range, "groups");
    if (groups == 0) fail("ZeroDivisionError: integer division or modulo by zero");
    // Python's % and // (floored) on the sizes.
    auto py_mod = [](int64_t a, int64_t b) { return ((a % b) + b) % b; };
    if (py_mod(t.size(0), groups) != 0) fail("ValueError: dim 0 must be divisible by groups");
    const int64_t per_group = (t.size(0) - py_mod(t.size(0), groups)) / groups;
    const int64_t min_dim = std::min(per_group, t.size(1));
    Tensor value = Tensor::zeros(t.shape(), DType::Float32);
    float* p = value.data<float>();
    for (int64_t g = 0; g < groups; ++g) {
      for (int64_t d = 0; d < min_dim; ++d) {
        int64_t offset = (g * per_group + d) * t.size(1) + d;
        for (int64_t k = 2; k < dims; ++k) offset = offset * t.size(k) + t.size(k) / 2;
        p[offset] = 1.0f;
      }
    }
    return overwrite(self, value);
  }

  // The inverse error function in double: a first guess refined by Newton's method on
  // std::erf (to the last bits of a double); +-inf at +-1, as PyTorch's erfinv.
  static double erfinv(double y) {
    if (y <= -1) return y == -1 ? -INFINITY : NAN;
    if (y >= 1) return y == 1 ? INFINITY : NAN;
    const double w = -std::log((1 - y) * (1 + y));
    double x =
        std::copysign(std::sqrt(std::sqrt(std::pow(2 / (M_PI * 0.147) + w / 2, 2) - w / 0.147) -
                                (2 / (M_PI * 0.147) + w / 2)),
                      y);
    for (int i = 0; i < 4; ++i) {
      const double err = std::erf(x) - y;
      x -= err / (2 / std::sqrt(M_PI) * std::exp(-x * x));
    }
    return x;
  }

  // trunc_normal_: PyTorch's inverse-CDF method. A uniform draw in [2l-1, 2u-1)
  // (aten::uniform_), then erfinv, * std * sqrt(2), + mean, clamped to [a, b].
  IValue trunc_normal(const IValue& self, double mean, double std, double a, double b) const {
    const Tensor t = tensor(self);
    if (std == 0) fail("ZeroDivisionError: float division by zero");
    if (mean < a - 2 * std || mean > b + 2 * std) {
      std::cerr << "UserWarning: mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                   "The distribution of values may be incorrect.\n";
    }
    auto norm_cdf = [](double x) { return (1. + std::erf(x / std::sqrt(2.))) / 2.; };
    const double l = norm_cdf((a - mean) / std), u = norm_cdf((b - mean) / std);
    write("aten::uniform_", {self, IValue(2 * l - 1), IValue(2 * u - 1)});
    Tensor value = t.clone();
    float* p = value.data<float>();
    const float lo = static_cast<float>(a), hi = static_cast<float>(b);
    for (int64_t i = 0; i < value.numel(); ++i) {
      float x = static_cast<float>(erfinv(p[i]) * (std * std::sqrt(2.)) + mean);
      p[i] = x < lo ? lo : x > hi ? hi : x;
    }
    return overwrite(self, value);
  }

  // orthogonal_: a (rows, numel / rows) standard-normal draw, transposed when wide, its
  // QR (Householder, Eigen), Q's columns multiplied by the signs of R's diagonal (so the
  // result is PyTorch's unique Q for that draw), transposed back, times gain.
  IValue orthogonal(const IValue& self, double gain) const {
    const Tensor t = tensor(self);
    if (t.dim() < 2) fail("ValueError: Only tensors with 2 or more dimensions are supported");
    if (t.numel() == 0) return self;
    const int64_t rows = t.size(0), cols = t.numel() / rows;
    Tensor flat = Tensor::empty({rows, cols}, DType::Float32);
    write("aten::normal_", {IValue(flat), IValue(0.0), IValue(1.0)});
    using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;
    const bool wide = rows < cols;
    const int64_t m = wide ? cols : rows, n = wide ? rows : cols;
    Mat a(m, n);
    const float* f = flat.data<float>();
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const double v = f[i * cols + j];
        if (wide) {
          a(j, i) = v;
        } else {
          a(i, j) = v;
        }
      }
    }
    Eigen::HouseholderQR<Mat> qr(a);
    Mat q = qr.householderQ() * Mat::Identity(m, n);
    for (int64_t j = 0; j < n; ++j) {
      const double d = qr.matrixQR()(j, j);
      q.col(j) *= d > 0 ? 1.0 : d < 0 ? -1.0 : 0.0;
    }
    Tensor value = Tensor::empty(t.shape(), DType::Float32);
    float* p = value.data<float>();
    const float g = static_cast<float>(gain);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        p[i * cols + j] = static_cast<float>(wide ? q(j, i) : q(i, j)) * g;
      }
    }
    return overwrite(self, value);
  }
};

}  // namespace

bool is_init_name(const std::string& qualname) {
  if (qualname.rfind(kPrefix, 0) != 0) return false;
  const std::string leaf = qualname.substr(std::string(kPrefix).size());
  for (const char* f : kInitFunctions) {
    if (leaf == f) return true;
  }
  return is_deprecated_name(leaf);
}

std::vector<std::string> init_function_names() {
  return std::vector<std::string>(std::begin(kInitFunctions), std::end(kInitFunctions));
}

IValue call_init_name(Interpreter& in, const std::string& qualname, ValueList args, Kwargs kwargs,
                      const SourceRange& range) {
  std::string name = qualname.substr(std::string(kPrefix).size());
  if (is_deprecated_name(name)) {
    std::cerr << "UserWarning: nn.init." << name << " is now deprecated in favor of nn.init."
              << name << "_.\n";
    name += "_";
  }
  const InitCall c{in, name, range};
  auto bind = [&](std::vector<ParamSpec> params) {
    return bind_args(name, params, std::move(args), std::move(kwargs), range);
  };
  if (name == "calculate_gain") {
    ValueList a = bind({{"nonlinearity", std::nullopt}, {"param", IValue()}});
    return c.gain(a[0], a[1]);
  }
  if (name == "_calculate_fan_in_and_fan_out") {
    ValueList a = bind({{"tensor", std::nullopt}});
    auto [fan_in, fan_out] = c.fans(c.tensor(a[0]));
    return IValue::tuple({IValue(fan_in), IValue(fan_out)});
  }
  if (name == "uniform_" || name == "normal_") {
    const bool uniform = name == "uniform_";
    ValueList a = bind({{"tensor", std::nullopt},
                        {uniform ? "a" : "mean", IValue(uniform ? 0.0 : 0.0)},
                        {uniform ? "b" : "std", IValue(1.0)}});
    c.tensor(a[0]);
    const double x = c.number(a[1], uniform ? "a" : "mean");
    const double y = c.number(a[2], uniform ? "b" : "std");
    return c.write(uniform ? "aten::uniform_" : "aten::normal_", {a[0], IValue(x), IValue(y)});
  }
  if (name == "constant_") {
    ValueList a = bind({{"tensor", std::nullopt}, {"val", std::nullopt}});
    c.tensor(a[0]);
    return c.write("aten::fill_", {a[0], IValue(c.number(a[1], "val"))});
  }
  if (name == "zeros_" || name == "ones_") {
    ValueList a = bind({{"tensor", std::nullopt}});
    c.tensor(a[0]);
    if (name == "zeros_") return c.write("aten::zero_", {a[0]});
    return c.write("aten::fill_", {a[0], IValue(1.0)});
  }
  if (name == "eye_") {
    ValueList a = bind({{"tensor", std::nullopt}});
    const Tensor t = c.tensor(a[0]);
    if (t.dim() != 2) c.fail("ValueError: Only tensors with 2 dimensions are supported");
    Tensor value = Tensor::zeros(t.shape(), DType::Float32);
    for (int64_t i = 0; i < std::min(t.size(0), t.size(1)); ++i)
      value.data<float>()[i * t.size(1) + i] = 1.0f;
    return c.overwrite(a[0], value);
  }
  if (name == "dirac_") {
    ValueList a = bind({{"tensor", std::nullopt}, {"groups", IValue(int64_t{1})}});
    return c.dirac(a[0], a[1]);
  }
  if (name == "xavier_uniform_" || name == "xavier_normal_") {
    ValueList a = bind({{"tensor", std::nullopt}, {"gain", IValue(1.0)}});
    auto [fan_in, fan_out] = c.fans(c.tensor(a[0]));
    const double gain = c.number(a[1], "gain");
    if (fan_in + fan_out == 0) c.fail("ZeroDivisionError: float division by zero");
    const double std = gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
    if (name == "xavier_normal_") return c.write("aten::normal_", {a[0], IValue(0.0), IValue(std)});
    const double bound = std::sqrt(3.0) * std;
    return c.write("aten::uniform_", {a[0], IValue(-bound), IValue(bound)});
  }
  if (name == "kaiming_uniform_" || name == "kaiming_normal_") {
    ValueList a = bind({{"tensor", std::nullopt},
                        {"a", IValue(int64_t{0})},
                        {"mode", IValue(std::string("fan_in"))},
                        {"nonlinearity", IValue(std::string("leaky_relu"))}});
    const Tensor t = c.tensor(a[0]);
    if (InitCall::empty_shape(t)) {
      std::cerr << "UserWarning: Initializing zero-element tensors is a no-op\n";
      return a[0];
    }
    const int64_t fan = c.correct_fan(t, a[2]);
    const double gain = c.gain(a[3], a[1]).to_double();
    const double std = gain / std::sqrt(static_cast<double>(fan));
    if (name == "kaiming_normal_")
      return c.write("aten::normal_", {a[0], IValue(0.0), IValue(std)});
    const double bound = std::sqrt(3.0) * std;
    return c.write("aten::uniform_", {a[0], IValue(-bound), IValue(bound)});
  }
  if (name == "trunc_normal_") {
    ValueList a = bind({{"tensor", std::nullopt},
                        {"mean", IValue(0.0)},
                        {"std", IValue(1.0)},
                        {"a", IValue(-2.0)},
                        {"b", IValue(2.0)}});
    c.tensor(a[0]);
    return c.trunc_normal(a[0], c.number(a[1], "mean"), c.number(a[2], "std"), c.number(a[3], "a"),
                          c.number(a[4], "b"));
  }
  // orthogonal_
  ValueList a = bind({{"tensor", std::nullopt}, {"gain", IValue(int64_t{1})}});
  c.tensor(a[0]);
  return c.orthogonal(a[0], c.number(a[1], "gain"));
}

}  // namespace d2s::interp
