// Tensor creation: zeros ones empty full arange linspace eye tensor, the *_like
// forms, and the random ones (rand randn randint rand_like randn_like), which
// draw from ctx.generator in row-major order as docs/random.md describes.
// Every creation op accepts dtype=, device= (only "cpu") and requires_grad=.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/ops/kernels.h"
#include "core/tensor/random.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

// The keyword tail shared by creation ops (dtype is the first of it).
constexpr const char* kOptions =
    "ScalarType? dtype=None, Any? device=None, bool requires_grad=False";

std::string schema(const std::string& head, bool has_star = true) {
  return head + (has_star ? ", *, " : "*, ") + kOptions + ") -> Tensor";
}

void check_device(const IValue& device) {
  if (device.is_none()) return;
  if (!device.is_string() || device.to_string() != "cpu") {
    fail("d2s runs on the CPU only; got device " + device.repr());
  }
}

// Applies dtype/device/requires_grad; `o` indexes the dtype argument.
Tensor finish(Tensor t, const ValueList& a, size_t o) {
  check_device(a[o + 1]);
  if (a[o + 2].to_bool()) {
    if (t.dtype() != DType::Float32) {
      fail("Only Tensors of floating point and complex dtype can require gradients");
    }
    t.set_requires_grad(true);
  }
  return t;
}

DType dtype_or(const IValue& v, DType fallback) {
  return dtype_arg(v).value_or(fallback);
}

// A double as PyTorch's messages print it (C++'s default stream format: 1, -0.5, 1e+20).
std::string number_text(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

Generator& generator(OpContext& ctx, const char* op) {
  if (!ctx.generator) fail(std::string(op) + "(): no random generator was given to this call");
  return *ctx.generator;
}

Tensor rand(OpContext& ctx, const Shape& shape, DType dtype) {
  if (dtype != DType::Float32) {
    fail(std::string("\"check_uniform_bounds\" not implemented for '") + dtype_word(dtype) + "'");
  }
  Generator& g = generator(ctx, "rand");
  Tensor t = Tensor::empty(shape, DType::Float32);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = g.uniform();
  return t;
}

Tensor randn(OpContext& ctx, const Shape& shape, DType dtype) {
  if (dtype != DType::Float32) {
    fail(std::string("\"normal_kernel_cpu\" not implemented for '") + dtype_word(dtype) + "'");
  }
  Generator& g = generator(ctx, "randn");
  Tensor t = Tensor::empty(shape, DType::Float32);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = g.normal();
  return t;
}

Tensor randint(OpContext& ctx, int64_t low, int64_t high, const Shape& shape, DType dtype) {
  if (low >= high) {
    fail("random_ expects 'from' to be less than 'to', but got from=" + std::to_string(low) +
         " >= to=" + std::to_string(high));
  }
  Generator& g = generator(ctx, "randint");
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  Tensor t = Tensor::empty(shape, DType::Int64);
  int64_t* p = t.data<int64_t>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    p[i] = static_cast<int64_t>(static_cast<uint64_t>(low) + g.next_u64() % range);
  }
  return as_dtype(t, dtype);
}

Tensor arange(const IValue& start, const IValue& end, const IValue& step, const IValue& dtype) {
  const bool any_float = start.is_double() || end.is_double() || step.is_double();
  const DType d = dtype_or(dtype, any_float ? DType::Float32 : DType::Int64);
  const double s = start.to_double(), e = end.to_double(), st = step.to_double();
  if (!std::isfinite(s) || !std::isfinite(e)) {
    fail("unsupported range: " + start.repr() + " -> " + end.repr());
  }
  if (st == 0) fail("step must be nonzero");
  if ((st > 0 && e < s) || (st < 0 && e > s)) {
    fail("upper bound and larger bound inconsistent with step sign");
  }
  const double count = std::ceil((e - s) / st);
  if (count > static_cast<double>(max_tensor_elements())) {
    fail("arange of " + IValue(count).repr() + " elements is too large for d2s");
  }
  const int64_t n = static_cast<int64_t>(count);
  Tensor t = Tensor::empty({n}, d);
  if (d == DType::Int64 && !any_float) {
    int64_t* p = t.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = start.to_int() + i * step.to_int();
    return t;
  }
  // Values start + i * step in double, then cast, as PyTorch's CPU kernel does.
  dispatch(d, [&](auto tag) {
    using T = decltype(tag);
    T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(s + static_cast<double>(i) * st);
  });
  return t;
}

Tensor linspace(double start, double end, int64_t steps, DType d) {
  if (steps < 0) fail("number of steps must be non-negative");
  Tensor t = Tensor::empty({steps}, DType::Float32);
  float* p = t.data<float>();
  // PyTorch fills the two halves from each end, so both endpoints are exact.
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0;
  const int64_t half = steps / 2;
  for (int64_t i = 0; i < steps; ++i) {
    p[i] = static_cast<float>(i < half ? start + step * i : end - step * (steps - i - 1));
  }
  return as_dtype(t, d);
}

Tensor eye(int64_t n, int64_t m, DType d) {
  if (n < 0) fail("n must be greater or equal to 0, got " + std::to_string(n));
  if (m < 0) fail("m must be greater or equal to 0, got " + std::to_string(m));
  Tensor t = Tensor::zeros({n, m}, d);
  dispatch(d, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < std::min(n, m); ++i) t.data<T>()[i * m + i] = T(1);
  });
  return t;
}

// torch.tensor(data): the shape from the nesting, the dtype from the leaves.
struct Nested {
  Shape shape;
  std::vector<double> values;
  std::vector<int64_t> ints;  // exact int64 values when the data is all integers
  bool any_float = false, any_int = false;
  size_t leaf_depth = 0;  // the depth of the first scalar seen; 0 while none was
};

void walk(const IValue& v, size_t depth, Nested& out) {
  if (depth > 64) fail("tensor data is nested too deeply");
  if (v.is_list() || v.is_tuple()) {
    const ValueList& items = v.items();
    const int64_t n = static_cast<int64_t>(items.size());
    if (out.leaf_depth && depth + 1 >= out.leaf_depth) {
      fail("expected a number at dim " + std::to_string(depth) + " of the tensor data, got " +
           v.type_name());
    }
    if (depth == out.shape.size()) {
      out.shape.push_back(n);
    } else if (depth > out.shape.size() || out.shape[depth] != n) {
      fail("expected sequence of length " +
           std::to_string(depth < out.shape.size() ? out.shape[depth] : 0) + " at dim " +
           std::to_string(depth) + " (got " + std::to_string(n) + ")");
    }
    for (const IValue& item : items) walk(item, depth + 1, out);
    return;
  }
  if (depth < out.shape.size()) {
    fail("expected sequence of length " + std::to_string(out.shape[depth]) + " at dim " +
         std::to_string(depth) + " (got " + v.type_name() + ")");
  }
  if (!out.leaf_depth) out.leaf_depth = depth + 1;
  IValue x = v;
  if (v.is_tensor()) {
    if (v.to_tensor().numel() != 1)
      fail("only one element tensors can be converted to Python scalars");
    x = item_of(v.to_tensor());
  }
  if (!x.is_number()) fail("Could not infer dtype of " + x.type_name());
  out.any_float = out.any_float || x.is_double();
  out.any_int = out.any_int || x.is_int();
  out.values.push_back(x.to_double());
  out.ints.push_back(x.is_double() ? 0 : x.to_int());
}

Tensor tensor_from(const IValue& data, const IValue& dtype) {
  if (data.is_tensor()) {
    const Tensor& t = data.to_tensor();
    return t.to(dtype_or(dtype, t.dtype()));
  }
  Nested n;
  walk(data, 0, n);
  // A list whose inner lists were all empty has fewer leaves than dims suggest.
  if (shape_numel(n.shape) != static_cast<int64_t>(n.values.size())) {
    fail("inconsistent nesting in tensor data");
  }
  const DType inferred = n.any_float        ? DType::Float32
                         : n.any_int        ? DType::Int64
                         : n.values.empty() ? DType::Float32
                                            : DType::Bool;
  const DType d = dtype_or(dtype, inferred);
  Tensor t = Tensor::empty(n.shape, d);
  for (size_t i = 0; i < n.values.size(); ++i) {
    if (d == DType::Float32)
      t.data<float>()[i] = static_cast<float>(n.values[i]);
    else if (d == DType::Bool)
      t.data<bool>()[i] = n.values[i] != 0;
    else if (n.any_float)
      t.data<int64_t>()[i] = static_cast<int64_t>(n.values[i]);
    else
      t.data<int64_t>()[i] = n.ints[i];
  }
  return t;
}

// Tensor::full goes through double; an int fill of an int64 tensor stays exact.
Tensor full(const Shape& shape, const IValue& fill, DType d) {
  if (d != DType::Int64 || !fill.is_int()) return Tensor::full(shape, fill.to_double(), d);
  Tensor t = Tensor::empty(shape, d);
  std::fill_n(t.data<int64_t>(), t.numel(), fill.to_int());
  return t;
}

DType fill_dtype(const IValue& fill) {
  return fill.is_bool() ? DType::Bool : fill.is_int() ? DType::Int64 : DType::Float32;
}

Shape shape_arg(const IValue& v) {
  std::vector<int64_t> s = v.to_int_list();
  return Shape(s.begin(), s.end());
}

}  // namespace

void register_create(OpRegistry& r) {
  using A = const ValueList&;
  using C = OpContext&;
  r.add(schema("aten::zeros(int[] size"), [](C, A a) {
    return tv(finish(Tensor::zeros(shape_arg(a[0]), dtype_or(a[1], DType::Float32)), a, 1));
  });
  r.add(schema("aten::ones(int[] size"), [](C, A a) {
    return tv(finish(Tensor::full(shape_arg(a[0]), 1, dtype_or(a[1], DType::Float32)), a, 1));
  });
  r.add(
      schema("aten::empty(int[] size"),
      [](C, A a) {
        return tv(finish(Tensor::zeros(shape_arg(a[0]), dtype_or(a[1], DType::Float32)), a, 1));
      },
      OpTag::NoOnnx);
  r.add(schema("aten::full(int[] size, Scalar fill_value"), [](C, A a) {
    DType d = dtype_or(a[2], fill_dtype(a[1]));
    return tv(finish(full(shape_arg(a[0]), a[1], d), a, 2));
  });
  r.add(
      schema("aten::zeros_like(Tensor self"),
      [](C, A a) {
        Tensor x = tensor_arg(a[0]);
        return tv(finish(Tensor::zeros(x.shape(), dtype_or(a[1], x.dtype())), a, 1));
      },
      OpTag::NoDerivative);
  r.add(
      schema("aten::empty_like(Tensor self"),
      [](C, A a) {
        Tensor x = tensor_arg(a[0]);
        return tv(finish(Tensor::zeros(x.shape(), dtype_or(a[1], x.dtype())), a, 1));
      },
      OpTag::Nondeterministic | OpTag::NoDerivative | OpTag::NoOnnx);
  r.add(
      schema("aten::ones_like(Tensor self"),
      [](C, A a) {
        Tensor x = tensor_arg(a[0]);
        return tv(finish(Tensor::full(x.shape(), 1, dtype_or(a[1], x.dtype())), a, 1));
      },
      OpTag::NoDerivative);
  r.add(
      schema("aten::full_like(Tensor self, Scalar fill_value"),
      [](C, A a) {
        Tensor x = tensor_arg(a[0]);
        return tv(finish(full(x.shape(), a[1], dtype_or(a[2], x.dtype())), a, 2));
      },
      OpTag::NoDerivative);
  r.add(schema("aten::arange(Scalar end"), [](C, A a) {
    return tv(finish(arange(IValue(int64_t{0}), a[0], IValue(int64_t{1}), a[1]), a, 1));
  });
  r.add(schema("aten::arange.start_step(Scalar start, Scalar end, Scalar step=1"),
        [](C, A a) { return tv(finish(arange(a[0], a[1], a[2], a[3]), a, 3)); });
  r.add(
      schema("aten::linspace(Scalar start, Scalar end, int steps"),
      [](C, A a) {
        return tv(finish(linspace(a[0].to_double(), a[1].to_double(), a[2].to_int(),
                                  dtype_or(a[3], DType::Float32)),
                         a, 3));
      },
      OpTag::NoOnnx);
  r.add(
      schema("aten::eye(int n"),
      [](C, A a) {
        return tv(finish(eye(a[0].to_int(), a[0].to_int(), dtype_or(a[1], DType::Float32)), a, 1));
      },
      OpTag::NoOnnx);
  r.add(
      schema("aten::eye.m(int n, int m"),
      [](C, A a) {
        return tv(finish(eye(a[0].to_int(), a[1].to_int(), dtype_or(a[2], DType::Float32)), a, 2));
      },
      OpTag::NoOnnx);
  r.add(
      schema("aten::tensor(Any data"),
      [](C, A a) { return tv(finish(tensor_from(a[0], a[1]), a, 1)); }, OpTag::NoOnnx);

  // Random ops read ctx.generator (is_random: never constant-folded).
  r.add(
      schema("aten::rand(int[] size"),
      [](C c, A a) {
        return tv(finish(rand(c, shape_arg(a[0]), dtype_or(a[1], DType::Float32)), a, 1));
      },
      OpTag::Random | OpTag::NoOnnx);
  r.add(
      schema("aten::randn(int[] size"),
      [](C c, A a) {
        return tv(finish(randn(c, shape_arg(a[0]), dtype_or(a[1], DType::Float32)), a, 1));
      },
      OpTag::Random | OpTag::NoOnnx);
  r.add(
      schema("aten::rand_like(Tensor self"),
      [](C c, A a) {
        Tensor x = tensor_arg(a[0]);
        return tv(finish(rand(c, x.shape(), dtype_or(a[1], x.dtype())), a, 1));
      },
      OpTag::Random | OpTag::NoDerivative | OpTag::NoOnnx);
  r.add(
      schema("aten::randn_like(Tensor self"),
      [](C c, A a) {
        Tensor x = tensor_arg(a[0]);
        return tv(finish(randn(c, x.shape(), dtype_or(a[1], x.dtype())), a, 1));
      },
      OpTag::Random | OpTag::NoDerivative | OpTag::NoOnnx);
  r.add(
      schema("aten::randint(int high, int[] size"),
      [](C c, A a) {
        return tv(finish(
            randint(c, 0, a[0].to_int(), shape_arg(a[1]), dtype_or(a[2], DType::Int64)), a, 2));
      },
      OpTag::Random | OpTag::NoOnnx);
  r.add(
      schema("aten::randint.low(int low, int high, int[] size"),
      [](C c, A a) {
        return tv(finish(
            randint(c, a[0].to_int(), a[1].to_int(), shape_arg(a[2]), dtype_or(a[3], DType::Int64)),
            a, 3));
      },
      OpTag::Random | OpTag::NoOnnx);
  // x.uniform_(from, to), x.normal_(mean, std): self refilled in place from the
  // generator (docs/random.md, "What each op draws"); random, so never constant-folded.
  r.add(
      "aten::uniform_(Tensor(a!) self, float from=0., float to=1.) -> Tensor(a!)",
      [](C c, A a) {
        const Tensor self = tensor_arg(a[0]);
        const double from = a[1].to_double(), to = a[2].to_double();
        if (self.dtype() != DType::Float32) {
          fail(std::string("\"check_uniform_bounds\" not implemented for '") +
               dtype_word(self.dtype()) + "'");
        }
        if (from > to) {
          fail("uniform_ expects to return a [from, to) range, but found from=" +
               number_text(from) + " > to=" + number_text(to));
        }
        Generator& g = generator(c, "uniform_");
        Tensor t = Tensor::empty(self.shape(), DType::Float32);
        float* p = t.data<float>();
        for (int64_t i = 0; i < t.numel(); ++i)
          p[i] = static_cast<float>(from + (to - from) * static_cast<double>(g.uniform()));
        return tv(write_in_place(a[0], t));
      },
      OpTag::Random | OpTag::NoOnnx);
  r.add(
      "aten::normal_(Tensor(a!) self, float mean=0., float std=1.) -> Tensor(a!)",
      [](C c, A a) {
        const Tensor self = tensor_arg(a[0]);
        const double mean = a[1].to_double(), std = a[2].to_double();
        if (self.dtype() != DType::Float32) {
          fail(std::string("\"normal_kernel_cpu\" not implemented for '") +
               dtype_word(self.dtype()) + "'");
        }
        if (!(std >= 0.0)) fail("normal expects std >= 0.0, but found std " + number_text(std));
        Generator& g = generator(c, "normal_");
        Tensor t = Tensor::empty(self.shape(), DType::Float32);
        float* p = t.data<float>();
        for (int64_t i = 0; i < t.numel(); ++i)
          p[i] = static_cast<float>(mean + std * static_cast<double>(g.normal()));
        return tv(write_in_place(a[0], t));
      },
      OpTag::Random | OpTag::NoOnnx);
  // x.fill_(v), x.zero_(): every element of self set, in place.
  r.add("aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", [](C, A a) {
    const Tensor self = tensor_arg(a[0]);
    return tv(write_in_place(a[0], full(self.shape(), a[1], self.dtype())));
  });
  r.add("aten::zero_(Tensor(a!) self) -> Tensor(a!)", [](C, A a) {
    const Tensor self = tensor_arg(a[0]);
    return tv(write_in_place(a[0], Tensor::zeros(self.shape(), self.dtype())));
  });
}

}  // namespace d2s::kernels
