// Binary elementwise tensor ops: arithmetic, comparisons, logical and bitwise
// ops, where, masked_fill, and the in-place arithmetic forms. All broadcast and
// promote as PyTorch does (core/tensor/broadcast.h); the Python-number overloads of the
// same names are registered before these by kernels_scalar.cpp.
#include <cmath>
#include <limits>

#include "core/ops/kernels.h"
#include "core/ops/kernels_fast.h"

namespace d2s::kernels {

namespace {

int64_t int_pow(int64_t base, int64_t exp) {
  if (exp < 0) {  // what PyTorch's integer pow gives for tensor exponents
    if (base == 1) return 1;
    if (base == -1) return (exp & 1) ? -1 : 1;
    return 0;
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);  // unsigned: wraps, no UB
  for (; exp; exp >>= 1) {
    if (exp & 1) result *= b;
    b *= b;
  }
  return static_cast<int64_t>(result);
}

// PyTorch's div_floor_floating (also CPython's float floor division).
float floor_div_float(float a, float b) {
  if (b == 0) return a / b;
  float mod = std::fmod(a, b);
  float div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div == 0) return std::copysign(0.0f, a / b);
  float fl = std::floor(div);
  if (div - fl > 0.5f) fl += 1;
  return fl;
}

int64_t floor_div_int(int64_t a, int64_t b) {
  if (b == 0) fail("ZeroDivisionError");
  if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));  // INT64_MIN wraps
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

float rem_float(float a, float b) {
  float m = std::fmod(a, b);
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}

int64_t rem_int(int64_t a, int64_t b) {
  if (b == 0) fail("ZeroDivisionError");
  if (b == -1) return 0;
  int64_t m = a % b;
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}

template <typename T>
T nan_max(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  }
  return a < b ? b : a;
}

template <typename T>
T nan_min(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  }
  return b < a ? b : a;
}

// Pow with a Python-number exponent: PyTorch's pow_tensor_scalar special-cases
// these exponents, so the results (x*x rather than powf) match it bit for bit.
bool pow_special(const Tensor& base, double e, Tensor& out) {
  if (base.dtype() != DType::Float32) return false;
  auto run = [&](auto f) { unary_loop<float, float>(base, out, f); };
  if (e == 2)
    run([](float x) { return x * x; });
  else if (e == 3)
    run([](float x) { return x * x * x; });
  else if (e == 0.5)
    run([](float x) { return std::sqrt(x); });
  else if (e == -0.5)
    run([](float x) { return 1.0f / std::sqrt(x); });
  else if (e == -1)
    run([](float x) { return 1.0f / x; });
  else if (e == -2)
    run([](float x) { return 1.0f / (x * x); });
  else
    return false;
  return true;
}

template <typename T>
void run_binary(BinaryOp op, const Tensor& a, const Tensor& b, Tensor& out) {
  auto loop = [&](auto f) { binary_loop<T, T, T>(a, b, out, f); };
  switch (op) {
    case BinaryOp::Add:
      if constexpr (std::is_same_v<T, bool>)
        loop([](bool x, bool y) { return x || y; });
      else
        loop([](T x, T y) { return static_cast<T>(x + y); });
      return;
    case BinaryOp::Sub:
      if constexpr (!std::is_same_v<T, bool>) loop([](T x, T y) { return static_cast<T>(x - y); });
      return;
    case BinaryOp::Mul:
      if constexpr (std::is_same_v<T, bool>)
        loop([](bool x, bool y) { return x && y; });
      else
        loop([](T x, T y) { return static_cast<T>(x * y); });
      return;
    case BinaryOp::Div:
      if constexpr (std::is_same_v<T, float>) loop([](float x, float y) { return x / y; });
      return;
    case BinaryOp::FloorDiv:
      if constexpr (std::is_same_v<T, float>)
        loop(floor_div_float);
      else if constexpr (std::is_same_v<T, int64_t>)
        loop(floor_div_int);
      return;
    case BinaryOp::Rem:
      if constexpr (std::is_same_v<T, float>)
        loop(rem_float);
      else if constexpr (std::is_same_v<T, int64_t>)
        loop(rem_int);
      return;
    case BinaryOp::Pow:
      if constexpr (std::is_same_v<T, float>)
        loop([](float x, float y) { return std::pow(x, y); });
      else if constexpr (std::is_same_v<T, int64_t>)
        loop(int_pow);
      return;
    case BinaryOp::Maximum:
      loop(nan_max<T>);
      return;
    case BinaryOp::Minimum:
      loop(nan_min<T>);
      return;
  }
}

const char* kernel_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::FloorDiv:
      return "div_floor_cpu";
    case BinaryOp::Rem:
      return "remainder_cpu";
    case BinaryOp::Pow:
      return "pow";
    default:
      return "op";
  }
}

// The executor's most common calls, without wrapping a number in a tensor or the
// general broadcasting loop: a float32 tensor with a float32 tensor of the same
// shape, a 1-D float32 tensor along its last dimension (a bias), or a Python int or
// float (cast to float32 first, as the general path does). False for everything
// else. Plain loops, so that the compiler vectorises them. The result goes into
// `*result` when that is defined on entry (a dead argument of a's shape:
// reusable_arg); each element is read before the same index is written.
bool float_fast_path(BinaryOp op, const IValue& av, const IValue& bv, Tensor* result) {
  if (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::Mul && op != BinaryOp::Div)
    return false;
  if (!av.is_tensor()) return false;
  const Tensor& a = av.to_tensor();
  if (!a.defined() || a.dtype() != DType::Float32) return false;
  const float* pb = nullptr;
  int64_t row = 0;  // b's length when it repeats along a's last dimension
  float y = 0;
  if (bv.is_tensor()) {
    const Tensor& b = bv.to_tensor();
    if (!b.defined() || b.dtype() != DType::Float32) return false;
    if (b.shape() != a.shape()) {
      if (b.dim() != 1 || a.dim() < 1 || b.size(0) != a.shape().back() || b.size(0) == 0) {
        return false;
      }
      row = b.size(0);
    }
    pb = b.data<float>();
  } else if (bv.is_double() || bv.is_int()) {
    y = static_cast<float>(bv.to_double());
  } else {
    return false;
  }
  Tensor out = result->defined() ? *result : Tensor::empty(a.shape(), DType::Float32);
  const float* pa = a.data<float>();
  float* po = out.data<float>();
  const int64_t n = out.numel();
  auto run = [&](auto f) {
    if (row) {
      for (int64_t r = 0; r < n; r += row) {
        for (int64_t j = 0; j < row; ++j) po[r + j] = f(pa[r + j], pb[j]);
      }
    } else if (pb) {
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], y);
    }
  };
  switch (op) {
    case BinaryOp::Add:
      run([](float u, float v) { return u + v; });
      break;
    case BinaryOp::Sub:
      run([](float u, float v) { return u - v; });
      break;
    case BinaryOp::Mul:
      run([](float u, float v) { return u * v; });
      break;
    default:
      run([](float u, float v) { return u / v; });
      break;
  }
  *result = std::move(out);
  return true;
}

}  // namespace

namespace {

// A dead operand that can take the float32 result of op(a, b): a itself, or b when it
// has a's shape, which is the result's shape on the float32 fast path.
Tensor reuse_for_binary(const IValue& a, const IValue& b, bool a_dead, bool b_dead) {
  Tensor t = reusable_value(a, a_dead, DType::Float32);
  if (t.defined()) return t;
  t = reusable_value(b, b_dead, DType::Float32);
  return t.defined() && a.is_tensor() && t.shape() == a.to_tensor().shape() ? t : Tensor();
}

// The executor's direct entries (kernels_fast.h): the registered kernels' float32
// loops (float_fast_path), with alpha 1 for add and sub (the planner checks it).
bool fast_binary(BinaryOp op, const IValue& a, const IValue& b, uint32_t dead, Tensor& out) {
  Tensor result = reuse_for_binary(a, b, dead & 1u, dead >> 1 & 1u);
  if (!float_fast_path(op, a, b, &result)) return false;
  out = std::move(result);
  return true;
}

}  // namespace

bool fast_add(const IValue& a, const IValue* b, uint32_t dead, Tensor& out) {
  return fast_binary(BinaryOp::Add, a, *b, dead, out);
}

bool fast_sub(const IValue& a, const IValue* b, uint32_t dead, Tensor& out) {
  return fast_binary(BinaryOp::Sub, a, *b, dead, out);
}

bool fast_mul(const IValue& a, const IValue* b, uint32_t dead, Tensor& out) {
  return fast_binary(BinaryOp::Mul, a, *b, dead, out);
}

bool fast_div(const IValue& a, const IValue* b, uint32_t dead, Tensor& out) {
  return fast_binary(BinaryOp::Div, a, *b, dead, out);
}

Tensor binary_op(BinaryOp op, const IValue& av, const IValue& bv) {
  return binary_op(op, av, bv, Tensor());
}

Tensor binary_op(BinaryOp op, const IValue& av, const IValue& bv, Tensor reuse) {
  if (float_fast_path(op, av, bv, &reuse)) return reuse;
  const Tensor a = tensor_arg(av), b = tensor_arg(bv);
  DType common = result_type(av, bv);
  if (op == BinaryOp::Sub && (a.dtype() == DType::Bool || b.dtype() == DType::Bool)) {
    if (a.dtype() == DType::Bool && b.dtype() == DType::Bool) {
      fail(
          "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
          "or `logical_xor()` operator instead.");
    }
    fail(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
        "to invert a mask, use the `~` or `logical_not()` operator instead.");
  }
  // True division of integers gives floats, as Python's / does.
  if (op == BinaryOp::Div) common = DType::Float32;
  if (common == DType::Bool &&
      (op == BinaryOp::FloorDiv || op == BinaryOp::Rem || op == BinaryOp::Pow)) {
    fail(std::string("\"") + kernel_name(op) + "\" not implemented for 'Bool'");
  }
  if (op == BinaryOp::Pow && common == DType::Int64 && bv.is_number() && bv.to_double() < 0) {
    fail("Integers to negative integer powers are not allowed.");
  }
  Shape shape = broadcast_shapes(a.shape(), b.shape());
  Tensor out = Tensor::empty(shape, common);
  const Tensor ca = as_dtype(a, common);
  if (op == BinaryOp::Pow && bv.is_number() && shape == a.shape() &&
      pow_special(ca, bv.to_double(), out)) {
    return out;
  }
  const Tensor cb = as_dtype(b, common);
  dispatch(common, [&](auto tag) { run_binary<decltype(tag)>(op, ca, cb, out); });
  return out;
}

namespace {

// reuse_for_binary of a[first] and a[second], dead as OpContext::dead_args marks them.
Tensor reuse_for_binary(const OpContext& ctx, const ValueList& a, size_t first, size_t second) {
  return reuse_for_binary(a[first], a[second], ctx.dead_args >> first & 1u,
                          ctx.dead_args >> second & 1u);
}

// op(a[0], a[1]) reusing a dead argument's buffer where it can.
Tensor binary_reusing(BinaryOp op, const OpContext& ctx, const ValueList& a) {
  return binary_op(op, a[0], a[1], reuse_for_binary(ctx, a, 0, 1));
}

// add/sub with `alpha`: self + alpha * other, alpha cast to the result type.
Tensor add_alpha(bool subtract, const IValue& self, const IValue& other, const IValue& alpha,
                 Tensor reuse = Tensor()) {
  const BinaryOp op = subtract ? BinaryOp::Sub : BinaryOp::Add;
  if (alpha.is_int() && alpha.to_int() == 1) return binary_op(op, self, other, std::move(reuse));
  DType common = result_type(self, other);
  if (common != DType::Float32 && alpha.is_double()) {
    fail("For integral input tensors, argument alpha must not be a floating point number.");
  }
  if (common != DType::Bool && alpha.is_bool()) {
    fail("Boolean alpha only supported for Boolean results.");
  }
  Tensor scaled = binary_op(BinaryOp::Mul, other, alpha);
  return binary_op(op, self, IValue(as_dtype(scaled, promote_types(common, scaled.dtype()))));
}

enum class Cmp { Lt, Gt, Le, Ge, Eq, Ne };

Tensor compare(Cmp c, const IValue& av, const IValue& bv) {
  const Tensor a = tensor_arg(av), b = tensor_arg(bv);
  const DType common = result_type(av, bv);
  const Tensor ca = as_dtype(a, common), cb = as_dtype(b, common);
  Tensor out = Tensor::empty(broadcast_shapes(a.shape(), b.shape()), DType::Bool);
  dispatch(common, [&](auto tag) {
    using T = decltype(tag);
    auto loop = [&](auto f) { binary_loop<T, T, bool>(ca, cb, out, f); };
    switch (c) {
      case Cmp::Lt:
        return loop([](T x, T y) { return x < y; });
      case Cmp::Gt:
        return loop([](T x, T y) { return x > y; });
      case Cmp::Le:
        return loop([](T x, T y) { return x <= y; });
      case Cmp::Ge:
        return loop([](T x, T y) { return x >= y; });
      case Cmp::Eq:
        return loop([](T x, T y) { return x == y; });
      case Cmp::Ne:
        return loop([](T x, T y) { return x != y; });
    }
  });
  return out;
}

enum class Logic { And, Or, Xor };

// logical_*: any dtype, nonzero is true, result bool.
Tensor logical(Logic l, const IValue& av, const IValue& bv) {
  const Tensor a = as_dtype(tensor_arg(av), DType::Bool);
  const Tensor b = as_dtype(tensor_arg(bv), DType::Bool);
  Tensor out = Tensor::empty(broadcast_shapes(a.shape(), b.shape()), DType::Bool);
  if (l == Logic::And)
    binary_loop<bool, bool, bool>(a, b, out, [](bool x, bool y) { return x && y; });
  if (l == Logic::Or)
    binary_loop<bool, bool, bool>(a, b, out, [](bool x, bool y) { return x || y; });
  if (l == Logic::Xor)
    binary_loop<bool, bool, bool>(a, b, out, [](bool x, bool y) { return x != y; });
  return out;
}

// &, |, ^ on bool and integer tensors (bitwise; on bools that is logical).
Tensor bitwise(Logic l, const IValue& av, const IValue& bv) {
  const DType common = result_type(av, bv);
  static const char* const kNames[] = {"bitwise_and_cpu", "bitwise_or_cpu", "bitwise_xor_cpu"};
  if (common == DType::Float32) {
    fail(std::string("\"") + kNames[static_cast<int>(l)] + "\" not implemented for 'Float'");
  }
  if (common == DType::Bool) return logical(l, av, bv);
  const Tensor a = as_dtype(tensor_arg(av), common), b = as_dtype(tensor_arg(bv), common);
  Tensor out = Tensor::empty(broadcast_shapes(a.shape(), b.shape()), common);
  auto loop = [&](auto f) { binary_loop<int64_t, int64_t, int64_t>(a, b, out, f); };
  if (l == Logic::And) loop([](int64_t x, int64_t y) { return x & y; });
  if (l == Logic::Or) loop([](int64_t x, int64_t y) { return x | y; });
  if (l == Logic::Xor) loop([](int64_t x, int64_t y) { return x ^ y; });
  return out;
}

Tensor where(const IValue& cv, const IValue& av, const IValue& bv) {
  const Tensor c = tensor_arg(cv);
  if (c.dtype() != DType::Bool) {
    fail(std::string("where expected condition to be a boolean tensor, but got a tensor with "
                     "dtype ") +
         dtype_word(c.dtype()));
  }
  const DType common = result_type(av, bv);
  const Tensor a = as_dtype(tensor_arg(av), common), b = as_dtype(tensor_arg(bv), common);
  Tensor out =
      Tensor::empty(broadcast_shapes(c.shape(), broadcast_shapes(a.shape(), b.shape())), common);
  dispatch(common, [&](auto tag) {
    using T = decltype(tag);
    ternary_loop<bool, T>(c, a, b, out, [](bool k, T x, T y) { return k ? x : y; });
  });
  return out;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const IValue& value) {
  if (mask.dtype() != DType::Bool) {
    fail(std::string("masked_fill_ only supports boolean masks, but got mask with dtype ") +
         dtype_name(mask.dtype()));
  }
  if (self.dtype() != DType::Float32 && value.is_double()) {
    fail("value cannot be converted to type " + std::string(dtype_name(self.dtype())) +
         " without overflow");
  }
  const Tensor fill = Tensor::scalar(value.to_double(), self.dtype());
  Tensor out = Tensor::empty(broadcast_shapes(self.shape(), mask.shape()), self.dtype());
  dispatch(self.dtype(), [&](auto tag) {
    using T = decltype(tag);
    ternary_loop<bool, T>(mask, fill, self, out, [](bool k, T x, T y) { return k ? x : y; });
  });
  return out;
}

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

}  // namespace

// x += y and friends: compute out of place, then write into self's storage so
// that every alias of self sees the change, as in PyTorch.
Tensor write_in_place(const IValue& selfv, const Tensor& result) {
  if (!selfv.is_tensor()) fail("in-place operations need a Tensor, not " + selfv.type_name());
  Tensor self = selfv.to_tensor();
  if (promote_types(self.dtype(), result.dtype()) != self.dtype()) {
    fail(std::string("result type ") + dtype_word(result.dtype()) +
         " can't be cast to the desired output type " + dtype_word(self.dtype()));
  }
  if (result.shape() != self.shape()) {
    fail("output with shape " + shape_str(self.shape()) + " doesn't match the broadcast shape " +
         shape_str(result.shape()));
  }
  Tensor converted = as_dtype(result, self.dtype());
  std::copy_n(converted.data<std::byte>(), self.numel() * dtype_size(self.dtype()),
              self.data<std::byte>());
  return self;
}

void register_elementwise(OpRegistry& r) {
  using A = const ValueList&;
  r.add(
      "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      [](OpContext& ctx, A a) {
        return tv(add_alpha(false, a[0], a[1], a[2], reuse_for_binary(ctx, a, 0, 1)));
      },
      OpTag::Pointwise);
  r.add(
      "aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      [](OpContext& ctx, A a) {
        return tv(add_alpha(true, a[0], a[1], a[2], reuse_for_binary(ctx, a, 0, 1)));
      },
      OpTag::Pointwise);
  r.add(
      "aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      [](OpContext&, A a) {
        return tv(add_alpha(true, a[1], a[0], a[2]));  // other - alpha * self
      },
      OpTag::Pointwise);
  r.add(
      "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor",
      [](OpContext& ctx, A a) { return tv(binary_reusing(BinaryOp::Mul, ctx, a)); },
      OpTag::Pointwise);
  r.add(
      "aten::div.Tensor(Tensor self, Tensor other) -> Tensor",
      [](OpContext& ctx, A a) { return tv(binary_reusing(BinaryOp::Div, ctx, a)); },
      OpTag::Pointwise | OpTag::FloatPromoting);
  r.add(
      "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
      [](OpContext&, A a) {
        if (a[2].is_none()) return tv(binary_op(BinaryOp::Div, a[0], a[1]));
        const std::string& mode = a[2].to_string();
        if (mode == "floor") return tv(binary_op(BinaryOp::FloorDiv, a[0], a[1]));
        if (mode != "trunc") {
          fail("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" +
               mode + "'");
        }
        if (result_type(a[0], a[1]) == DType::Float32) {
          Tensor q = binary_op(BinaryOp::Div, a[0], a[1]);
          float* p = q.data<float>();
          for (int64_t i = 0; i < q.numel(); ++i) p[i] = std::trunc(p[i]);
          return tv(q);
        }
        // Integer trunc division stays in integers (precision; x / 0 is an error).
        Tensor x = as_dtype(tensor_arg(a[0]), DType::Int64);
        Tensor y = as_dtype(tensor_arg(a[1]), DType::Int64);
        Tensor out = Tensor::empty(broadcast_shapes(x.shape(), y.shape()), DType::Int64);
        binary_loop<int64_t, int64_t, int64_t>(x, y, out, [](int64_t u, int64_t v) {
          if (v == 0) fail("ZeroDivisionError");
          return v == -1 ? static_cast<int64_t>(0 - static_cast<uint64_t>(u)) : u / v;
        });
        return tv(out);
      },
      OpTag::Pointwise);
  r.add(
      "aten::floor_divide(Tensor self, Tensor other) -> Tensor",
      [](OpContext&, A a) { return tv(binary_op(BinaryOp::FloorDiv, a[0], a[1])); },
      OpTag::Pointwise);
  r.add(
      "aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor",
      [](OpContext&, A a) { return tv(binary_op(BinaryOp::Rem, a[0], a[1])); }, OpTag::Pointwise);
  r.add(
      "aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor",
      [](OpContext&, A a) { return tv(binary_op(BinaryOp::Pow, a[0], a[1])); }, OpTag::Pointwise);
  r.add(
      "aten::maximum(Tensor self, Tensor other) -> Tensor",
      [](OpContext&, A a) { return tv(binary_op(BinaryOp::Maximum, a[0], a[1])); },
      OpTag::Pointwise);
  r.add(
      "aten::minimum(Tensor self, Tensor other) -> Tensor",
      [](OpContext&, A a) { return tv(binary_op(BinaryOp::Minimum, a[0], a[1])); },
      OpTag::Pointwise);

  static const std::pair<const char*, Cmp> kCmps[] = {{"lt", Cmp::Lt}, {"gt", Cmp::Gt},
                                                      {"le", Cmp::Le}, {"ge", Cmp::Ge},
                                                      {"eq", Cmp::Eq}, {"ne", Cmp::Ne}};
  for (const auto& [name, c] : kCmps) {
    Cmp cmp = c;
    r.add(
        std::string("aten::") + name + ".Tensor(Tensor self, Tensor other) -> Tensor",
        [cmp](OpContext&, A a) { return tv(compare(cmp, a[0], a[1])); },
        OpTag::Pointwise | OpTag::NoDerivative);
  }

  static const std::pair<const char*, Logic> kLogic[] = {
      {"and", Logic::And}, {"or", Logic::Or}, {"xor", Logic::Xor}};
  for (const auto& [name, l] : kLogic) {
    Logic op = l;
    r.add(
        std::string("aten::logical_") + name + "(Tensor self, Tensor other) -> Tensor",
        [op](OpContext&, A a) { return tv(logical(op, a[0], a[1])); },
        OpTag::Pointwise | OpTag::NoDerivative);
    r.add(
        std::string("aten::__") + name + "__.Tensor(Tensor self, Tensor other) -> Tensor",
        [op](OpContext&, A a) { return tv(bitwise(op, a[0], a[1])); },
        OpTag::Pointwise | OpTag::NoDerivative);
    r.add(
        std::string("aten::bitwise_") + name + ".Tensor(Tensor self, Tensor other) -> Tensor",
        [op](OpContext&, A a) { return tv(bitwise(op, a[0], a[1])); },
        OpTag::Pointwise | OpTag::NoDerivative);
  }

  r.add(
      "aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
      [](OpContext&, A a) { return tv(where(a[0], a[1], a[2])); }, OpTag::Pointwise);
  r.add(
      "aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor",
      [](OpContext&, A a) { return tv(masked_fill(tensor_arg(a[0]), tensor_arg(a[1]), a[2])); },
      OpTag::Pointwise);

  r.add(
      "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      [](OpContext&, A a) { return tv(write_in_place(a[0], add_alpha(false, a[0], a[1], a[2]))); });
  r.add(
      "aten::sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      [](OpContext&, A a) { return tv(write_in_place(a[0], add_alpha(true, a[0], a[1], a[2]))); });
  r.add("aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", [](OpContext&, A a) {
    return tv(write_in_place(a[0], binary_op(BinaryOp::Mul, a[0], a[1])));
  });
  r.add("aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", [](OpContext&, A a) {
    return tv(write_in_place(a[0], binary_op(BinaryOp::Div, a[0], a[1])));
  });
}

}  // namespace d2s::kernels
