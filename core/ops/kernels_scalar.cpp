// Python-number semantics for the ops that Python-level code and lowered scalar
// code use: arithmetic (int op int stays int, except / which gives a float;
// // and % follow Python's sign rules; bool counts as int), comparisons, the
// number conversions int()/float()/bool(), item, len, not, str, format, the
// math module's functions, and the builtins abs/round/min/max. These overloads
// are registered before the Tensor ones of the same names (see
// OpRegistry::builtin), so `2 + 3` is an int while `x + 3` is a tensor op.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/base/py_round.h"
#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

using A = const ValueList&;
using C = OpContext&;

[[noreturn]] void overflow() {
  fail("OverflowError: integer result does not fit in 64 bits (d2s ints are 64-bit)");
}

template <typename Op>
int64_t checked(Op op, int64_t a, int64_t b) {
  int64_t out;
  if (op(a, b, &out)) overflow();
  return out;
}

bool add_ov(int64_t a, int64_t b, int64_t* out) {
  return __builtin_add_overflow(a, b, out);
}
bool sub_ov(int64_t a, int64_t b, int64_t* out) {
  return __builtin_sub_overflow(a, b, out);
}
bool mul_ov(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

int64_t int_floordiv(int64_t a, int64_t b) {
  if (b == 0) fail("ZeroDivisionError: integer division or modulo by zero");
  if (a == INT64_MIN && b == -1) overflow();
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t int_mod(int64_t a, int64_t b) {
  if (b == 0) fail("ZeroDivisionError: integer division or modulo by zero");
  if (b == -1) return 0;
  int64_t m = a % b;
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}

// CPython's float_floor_div / float_rem.
double float_floordiv(double a, double b) {
  if (b == 0) fail("ZeroDivisionError: float floor division by zero");
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1.0;
  return fl;
}

double float_mod(double a, double b) {
  if (b == 0) fail("ZeroDivisionError: float modulo");
  double m = std::fmod(a, b);
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = std::copysign(0.0, b);
  }
  return m;
}

double float_pow(double a, double b) {
  if (a == 0 && b < 0) fail("ZeroDivisionError: 0.0 cannot be raised to a negative power");
  if (a < 0 && std::isfinite(b) && b != std::floor(b)) {
    fail(
        "ValueError: a negative number raised to a fractional power is complex, which d2s "
        "does not support");
  }
  double r = std::pow(a, b);
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) {
    fail("OverflowError: (34, 'Numerical result out of range')");
  }
  return r;
}

IValue int_pow(int64_t a, int64_t b) {
  if (b < 0) return IValue(float_pow(static_cast<double>(a), static_cast<double>(b)));
  int64_t result = 1, base = a;
  while (b) {
    if (b & 1) result = checked(mul_ov, result, base);
    b >>= 1;
    if (b) base = checked(mul_ov, base, base);
  }
  return IValue(result);
}

double true_div(double a, double b) {
  if (b == 0) fail("ZeroDivisionError: division by zero");
  return a / b;
}

// Python's truth value of any value; tensors need exactly one element.
bool truthy(const IValue& v) {
  if (v.is_none()) return false;
  if (v.is_number()) return v.to_double() != 0;
  if (v.is_string()) return !v.to_string().empty();
  if (v.is_tuple() || v.is_list()) return !v.items().empty();
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    if (t.numel() > 1)
      fail("RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
    if (t.numel() == 0) fail("RuntimeError: Boolean value of Tensor with no values is ambiguous");
    return t.value_at(0) != 0;
  }
  return true;
}

double tensor_number(const Tensor& t) {
  if (t.numel() != 1) fail("only one element tensors can be converted to Python scalars");
  return t.value_at(0);
}

int64_t float_to_int(double x) {
  if (std::isnan(x)) fail("ValueError: cannot convert float NaN to integer");
  if (std::isinf(x)) fail("OverflowError: cannot convert float infinity to integer");
  if (x >= 9.2233720368547758e18 || x < -9.2233720368547758e18) overflow();
  return static_cast<int64_t>(x);
}

// A math-module function: Python raises where C returns NaN or overflows.
double math_result(double x, double r, bool log_like) {
  if (std::isnan(r) && !std::isnan(x)) fail("ValueError: math domain error");
  if (std::isinf(r) && std::isfinite(x)) {
    fail(log_like ? "ValueError: math domain error" : "OverflowError: math range error");
  }
  return r;
}

void register_arith(OpRegistry& r) {
  r.add("aten::add.int(int a, int b) -> int",
        [](C, A a) { return IValue(checked(add_ov, a[0].to_int(), a[1].to_int())); });
  r.add("aten::add.float(float a, float b) -> float",
        [](C, A a) { return IValue(a[0].to_double() + a[1].to_double()); });
  r.add("aten::add.str(str a, str b) -> str",
        [](C, A a) { return IValue(a[0].to_string() + a[1].to_string()); });
  r.add("aten::add.t(Any[] a, Any[] b) -> Any[]", [](C, A a) {
    if (a[0].is_tuple() != a[1].is_tuple()) {
      fail("TypeError: can only concatenate " + a[0].type_name() + " (not \"" + a[1].type_name() +
           "\") to " + a[0].type_name());
    }
    ValueList items = a[0].items();
    items.insert(items.end(), a[1].items().begin(), a[1].items().end());
    return a[0].is_tuple() ? IValue::tuple(std::move(items)) : IValue::list(std::move(items));
  });
  r.add("aten::sub.int(int a, int b) -> int",
        [](C, A a) { return IValue(checked(sub_ov, a[0].to_int(), a[1].to_int())); });
  r.add("aten::sub.float(float a, float b) -> float",
        [](C, A a) { return IValue(a[0].to_double() - a[1].to_double()); });
  r.add("aten::mul.int(int a, int b) -> int",
        [](C, A a) { return IValue(checked(mul_ov, a[0].to_int(), a[1].to_int())); });
  r.add("aten::mul.float(float a, float b) -> float",
        [](C, A a) { return IValue(a[0].to_double() * a[1].to_double()); });
  r.add("aten::div.float(float a, float b) -> float",
        [](C, A a) { return IValue(true_div(a[0].to_double(), a[1].to_double())); });
  for (const char* name : {"aten::floor_divide", "aten::floordiv"}) {
    r.add(std::string(name) + ".int(int a, int b) -> int",
          [](C, A a) { return IValue(int_floordiv(a[0].to_int(), a[1].to_int())); });
    r.add(std::string(name) + ".float(float a, float b) -> float",
          [](C, A a) { return IValue(float_floordiv(a[0].to_double(), a[1].to_double())); });
  }
  r.add("aten::remainder.int(int a, int b) -> int",
        [](C, A a) { return IValue(int_mod(a[0].to_int(), a[1].to_int())); });
  r.add("aten::remainder.float(float a, float b) -> float",
        [](C, A a) { return IValue(float_mod(a[0].to_double(), a[1].to_double())); });
  // int ** int is an int unless the exponent is negative, as in Python.
  r.add("aten::pow.int(int a, int b) -> Scalar",
        [](C, A a) { return int_pow(a[0].to_int(), a[1].to_int()); });
  r.add("aten::pow.float(float a, float b) -> float",
        [](C, A a) { return IValue(float_pow(a[0].to_double(), a[1].to_double())); });
  // math.pow: always a float (torch.float_power's name; no tensor overload).
  r.add("aten::float_power.float(float a, float b) -> float",
        [](C, A a) { return IValue(float_pow(a[0].to_double(), a[1].to_double())); });
  r.add("aten::neg.int(int a) -> int", [](C, A a) {
    if (a[0].to_int() == INT64_MIN) overflow();
    return IValue(-a[0].to_int());
  });
  r.add("aten::neg.float(float a) -> float", [](C, A a) { return IValue(-a[0].to_double()); });
  r.add("aten::abs.int(int a) -> int", [](C, A a) {
    if (a[0].to_int() == INT64_MIN) overflow();
    return IValue(std::abs(a[0].to_int()));
  });
  r.add("aten::abs.float(float a) -> float",
        [](C, A a) { return IValue(std::abs(a[0].to_double())); });
  r.add("aten::fabs(float a) -> float", [](C, A a) { return IValue(std::abs(a[0].to_double())); });
  r.add("aten::bitwise_not.int(int a) -> int", [](C, A a) { return IValue(~a[0].to_int()); });

  static const std::pair<const char*, int> kBitwise[] = {{"and", 0}, {"or", 1}, {"xor", 2}};
  for (const auto& [name, k] : kBitwise) {
    const int op = k;
    r.add(std::string("aten::__") + name + "__.bool(bool a, bool b) -> bool", [op](C, A a) {
      const bool x = a[0].to_bool(), y = a[1].to_bool();
      return IValue(op == 0 ? x && y : op == 1 ? x || y : x != y);
    });
    r.add(std::string("aten::__") + name + "__.int(int a, int b) -> int", [op](C, A a) {
      const int64_t x = a[0].to_int(), y = a[1].to_int();
      return IValue(op == 0 ? x & y : op == 1 ? x | y : x ^ y);
    });
  }
}

void register_compare(OpRegistry& r) {
  struct Cmp {
    const char* name;
    bool (*fi)(int64_t, int64_t);
    bool (*fd)(double, double);
  };
  static const Cmp kCmps[] = {
      {"lt", [](int64_t a, int64_t b) { return a < b; }, [](double a, double b) { return a < b; }},
      {"gt", [](int64_t a, int64_t b) { return a > b; }, [](double a, double b) { return a > b; }},
      {"le", [](int64_t a, int64_t b) { return a <= b; },
       [](double a, double b) { return a <= b; }},
      {"ge", [](int64_t a, int64_t b) { return a >= b; },
       [](double a, double b) { return a >= b; }},
      {"eq", [](int64_t a, int64_t b) { return a == b; },
       [](double a, double b) { return a == b; }},
      {"ne", [](int64_t a, int64_t b) { return a != b; },
       [](double a, double b) { return a != b; }},
  };
  for (const Cmp& c : kCmps) {
    const std::string base = std::string("aten::") + c.name;
    auto fi = c.fi;
    auto fd = c.fd;
    r.add(base + ".int(int a, int b) -> bool",
          [fi](C, A a) { return IValue(fi(a[0].to_int(), a[1].to_int())); });
    r.add(base + ".float(float a, float b) -> bool",
          [fd](C, A a) { return IValue(fd(a[0].to_double(), a[1].to_double())); });
    r.add(base + ".str(str a, str b) -> bool",
          [fi](C, A a) { return IValue(fi(a[0].to_string().compare(a[1].to_string()), 0)); });
    if (base == "aten::eq" || base == "aten::ne") {
      // x.shape == (2, 3): int lists compare element-wise.
      const bool eq = base == "aten::eq";
      r.add(base + ".int_list(int[] a, int[] b) -> bool",
            [eq](C, A a) { return IValue((a[0].to_int_list() == a[1].to_int_list()) == eq); });
    }
  }
}

void register_conversions(OpRegistry& r) {
  r.add("aten::Int.Scalar(Scalar a) -> int", [](C, A a) {
    return a[0].is_double() ? IValue(float_to_int(a[0].to_double())) : IValue(a[0].to_int());
  });
  r.add("aten::Int.str(str a) -> int", [](C, A a) {
    const std::string& s = a[0].to_string();
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    while (end && *end == ' ') ++end;
    if (s.empty() || *end != '\0' || errno) {
      fail("ValueError: invalid literal for int() with base 10: " + IValue(s).repr());
    }
    return IValue(static_cast<int64_t>(v));
  });
  r.add("aten::Int.Tensor(Tensor a) -> int", [](C, A a) {
    const Tensor t = tensor_arg(a[0]);
    const double x = tensor_number(t);
    if (t.dtype() == DType::Int64) return IValue(t.data<int64_t>()[0]);
    return IValue(float_to_int(x));
  });
  r.add("aten::Float.Scalar(Scalar a) -> float", [](C, A a) { return IValue(a[0].to_double()); });
  r.add("aten::Float.str(str a) -> float", [](C, A a) {
    const std::string& s = a[0].to_string();
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    while (end && *end == ' ') ++end;
    if (s.empty() || *end != '\0') {
      fail("ValueError: could not convert string to float: " + IValue(s).repr());
    }
    return IValue(v);
  });
  r.add("aten::Float.Tensor(Tensor a) -> float",
        [](C, A a) { return IValue(tensor_number(tensor_arg(a[0]))); });
  r.add("aten::Bool.Any(Any a) -> bool", [](C, A a) { return IValue(truthy(a[0])); });
  r.add("aten::__not__(Any self) -> bool", [](C, A a) { return IValue(!truthy(a[0])); });
  // `x is None` / `x is not None` of a value that may be None (an Optional): the parse
  // route emits them only with None on one side, where identity is "both are None".
  for (bool negate : {false, true}) {
    r.add(std::string(negate ? "aten::__isnot__" : "aten::__is__") + "(Any self, Any obj) -> bool",
          [negate](C, A a) {
            if (!a[0].is_none() && !a[1].is_none()) {
              fail("'is' is only supported with None on one side");
            }
            return IValue((a[0].is_none() && a[1].is_none()) != negate);
          });
  }
  // An Optional value known (by an `is None` test) not to be None: the value itself.
  r.add("prim::unchecked_cast(Any x) -> Any", [](C, A a) {
    if (a[0].is_none()) fail("prim::unchecked_cast of None");
    return a[0];
  });
  r.add("aten::item(Tensor self) -> Scalar", [](C, A a) { return item_of(tensor_arg(a[0])); });
  r.add("aten::len.str(str s) -> int",
        [](C, A a) { return IValue(static_cast<int64_t>(a[0].to_string().size())); });
  r.add("aten::len.t(Any[] a) -> int",
        [](C, A a) { return IValue(static_cast<int64_t>(a[0].items().size())); });
  r.add("aten::len.Tensor(Tensor t) -> int", [](C, A a) {
    if (!a[0].is_tensor())
      fail("TypeError: object of type '" + a[0].type_name() + "' has no len()");
    const Tensor& t = a[0].to_tensor();
    if (t.dim() == 0) fail("TypeError: len() of a 0-d tensor");
    return IValue(t.shape()[0]);
  });
  r.add("aten::str(Any elem) -> str", [](C, A a) { return IValue(a[0].str()); });
  r.add("aten::format(str self, ...) -> str", [](C, A a) {
    return IValue(python_format(a[0].to_string(), ValueList(a.begin() + 1, a.end())));
  });
}

void register_math(OpRegistry& r) {
  struct Fn {
    const char* name;
    double (*fn)(double);
    bool log_like;
  };
  static const Fn kFns[] = {
      {"sqrt", [](double x) { return std::sqrt(x); }, false},
      {"exp", [](double x) { return std::exp(x); }, false},
      {"expm1", [](double x) { return std::expm1(x); }, false},
      {"log", [](double x) { return std::log(x); }, true},
      {"log2", [](double x) { return std::log2(x); }, true},
      {"log10", [](double x) { return std::log10(x); }, true},
      {"log1p", [](double x) { return std::log1p(x); }, true},
      {"sin", [](double x) { return std::sin(x); }, false},
      {"cos", [](double x) { return std::cos(x); }, false},
      {"tan", [](double x) { return std::tan(x); }, false},
      {"asin", [](double x) { return std::asin(x); }, false},
      {"acos", [](double x) { return std::acos(x); }, false},
      {"atan", [](double x) { return std::atan(x); }, false},
      {"sinh", [](double x) { return std::sinh(x); }, false},
      {"cosh", [](double x) { return std::cosh(x); }, false},
      {"tanh", [](double x) { return std::tanh(x); }, false},
      {"erf", [](double x) { return std::erf(x); }, false},
  };
  for (const Fn& f : kFns) {
    auto fn = f.fn;
    const bool log_like = f.log_like;
    r.add(std::string("aten::") + f.name + ".float(float a) -> float", [fn, log_like](C, A a) {
      const double x = a[0].to_double();
      return IValue(math_result(x, fn(x), log_like));
    });
  }
  r.add("aten::log.base(float a, float b) -> float", [](C, A a) {
    const double x = a[0].to_double(), b = a[1].to_double();
    const double num = math_result(x, std::log(x), true);
    const double den = math_result(b, std::log(b), true);
    return IValue(true_div(num, den));
  });
  r.add("aten::atan2.float(float a, float b) -> float",
        [](C, A a) { return IValue(std::atan2(a[0].to_double(), a[1].to_double())); });
  // math.floor / math.ceil / math.trunc / round() give ints in Python 3.
  static const std::pair<const char*, double (*)(double)> kToInt[] = {
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"trunc", [](double x) { return std::trunc(x); }},
      {"round", [](double x) { return std::nearbyint(x); }},  // half to even
  };
  for (const auto& [name, f] : kToInt) {
    auto fn = f;
    r.add(std::string("aten::") + name + ".int(int a) -> int", [](C, A a) { return a[0]; });
    r.add(std::string("aten::") + name + ".float(float a) -> int",
          [fn](C, A a) { return IValue(float_to_int(fn(a[0].to_double()))); });
  }
  // round(x, ndigits) stays a float. TorchScript has no such overload; d2s's parse route
  // lowers the builtin to it so the call runs in a graph as in Python.
  r.add("aten::round.int_ndigits(int a, int ndigits) -> int",
        [](C, A a) { return IValue(python_round(a[0].to_int(), a[1].to_int())); });
  r.add("aten::round.float_ndigits(float a, int ndigits) -> float",
        [](C, A a) { return IValue(python_round(a[0].to_double(), a[1].to_int())); });
  for (const char* name : {"isnan", "isinf", "isfinite"}) {
    const std::string n = name;
    auto test = [n](double x) {
      return n == "isnan" ? std::isnan(x) : n == "isinf" ? std::isinf(x) : std::isfinite(x);
    };
    r.add("aten::" + n + ".float(float a) -> bool",
          [test](C, A a) { return IValue(test(a[0].to_double())); });
    r.add(
        "aten::" + n + "(Tensor self) -> Tensor",
        [test](C, A a) {
          const Tensor x = as_dtype(tensor_arg(a[0]), DType::Float32);
          Tensor out = Tensor::empty(x.shape(), DType::Bool);
          unary_loop<float, bool>(x, out, [&](float v) { return test(v); });
          return IValue(out);
        },
        OpTag::Pointwise | OpTag::NoDerivative | OpTag::NoOnnx);
  }
  // Builtin min/max of two numbers: the first of equals wins, and the result is
  // the argument itself (max(2, 1.0) is the int 2), as in Python.
  for (bool largest : {true, false}) {
    const std::string base = largest ? "prim::max" : "prim::min";
    r.add(base + ".int(int a, int b) -> int", [largest](C, A a) {
      const int64_t x = a[0].to_int(), y = a[1].to_int();
      return IValue(largest ? (y > x ? y : x) : (y < x ? y : x));
    });
    r.add(base + ".Scalar(Scalar a, Scalar b) -> Scalar", [largest](C, A a) {
      const double x = a[0].to_double(), y = a[1].to_double();
      return largest ? (y > x ? a[1] : a[0]) : (y < x ? a[1] : a[0]);
    });
    r.add(base + ".list(Any[] l) -> Scalar", [largest, base](C, A a) {
      const ValueList& items = a[0].items();
      if (items.empty()) fail("ValueError: " + base.substr(6) + "() arg is an empty sequence");
      IValue best = items[0];
      for (const IValue& v : items) {
        if (!v.is_number())
          fail("TypeError: " + base.substr(6) + "() needs numbers, got " + v.type_name());
        const bool better =
            largest ? v.to_double() > best.to_double() : v.to_double() < best.to_double();
        if (better) best = v;
      }
      return best;
    });
  }
}

}  // namespace

void register_scalar(OpRegistry& r) {
  register_arith(r);
  register_compare(r);
  register_conversions(r);
  register_math(r);
}

}  // namespace d2s::kernels

namespace d2s {

double python_round(double x, int64_t ndigits) {
  if (!std::isfinite(x)) return x;
  if (ndigits >= 0) {
    // printf rounds the exact binary value correctly, as Python's round does.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(std::min<int64_t>(ndigits, 300)), x);
    return std::strtod(buf, nullptr);
  }
  const double scale = std::pow(10.0, static_cast<double>(-ndigits));
  return std::nearbyint(x / scale) * scale;
}

int64_t python_round(int64_t n, int64_t ndigits) {
  if (ndigits >= 0) return n;
  if (ndigits < -18) return 0;  // 10^19 is past int64: every int64 rounds to 0
  int64_t scale = 1;
  for (int64_t i = 0; i < -ndigits; ++i) scale *= 10;
  int64_t q = n / scale, rem = n % scale;  // floor division, as Python's
  if (rem < 0) {
    rem += scale;
    --q;
  }
  if (rem > scale - rem || (rem == scale - rem && q % 2 != 0)) ++q;
  return q * scale;
}

}  // namespace d2s
