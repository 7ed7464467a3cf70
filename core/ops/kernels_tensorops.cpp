// Tensor ops of issue 17 item 4 that belong to no other family: baddbmm, fmod,
// nonzero (and its as_tuple form, nonzero_numpy, which is also one-argument where), and
// the new_zeros / new_ones / new_full / new_empty creation methods (self's
// dtype unless dtype= is given).
#include <cmath>

#include "core/ops/kernels.h"
#include "core/ops/kernels_index.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

// baddbmm: beta * self + alpha * (batch1 @ batch2), with PyTorch's bmm checks (beta = 0
// ignores self's values, as PyTorch does, NaN included).
Tensor baddbmm(const IValue& self, const Tensor& b1, const Tensor& b2, const IValue& beta,
               const IValue& alpha) {
  OpContext ctx;
  const OpRegistry& reg = OpRegistry::builtin();
  IValue prod = reg.call(ctx, "aten::bmm", {IValue(b1), IValue(b2)}, {}, SourceRange());
  if (alpha.to_double() != 1) prod = IValue(binary_op(BinaryOp::Mul, prod, alpha));
  if (beta.to_double() == 0) {
    return broadcast_to(prod.to_tensor(),
                        broadcast_shapes(tensor_arg(self).shape(), prod.to_tensor().shape()));
  }
  IValue scaled = beta.to_double() == 1 ? self : IValue(binary_op(BinaryOp::Mul, self, beta));
  Tensor out = binary_op(BinaryOp::Add, scaled, prod);
  if (out.shape() != prod.to_tensor().shape()) {
    fail("expand(torch.FloatTensor{" + shape_str(tensor_arg(self).shape()) +
         "}, size=" + shape_str(prod.to_tensor().shape()) +
         "): the number of sizes provided must be greater or equal to the number of dimensions "
         "in the tensor");
  }
  return out;
}

// C's fmod: the remainder with the dividend's sign (unlike %, Python's remainder).
Tensor fmod(const IValue& a, const IValue& b) {
  const Tensor x = tensor_arg(a), y = tensor_arg(b);
  const DType d = result_type(a, b);
  Tensor out = Tensor::empty(broadcast_shapes(x.shape(), y.shape()), d);
  if (d == DType::Float32) {
    binary_loop<float, float, float>(as_dtype(x, d), as_dtype(y, d), out,
                                     [](float p, float q) { return std::fmod(p, q); });
  } else {
    binary_loop<int64_t, int64_t, int64_t>(as_dtype(x, DType::Int64), as_dtype(y, DType::Int64),
                                           out, [](int64_t p, int64_t q) {
                                             if (q == 0) fail("ZeroDivisionError");
                                             return p % q;
                                           });
    if (d == DType::Bool) out = out.to(DType::Bool);
  }
  return out;
}

// The coordinates of the nonzero elements, one row each: shape (n, self.dim()).
Tensor nonzero(const Tensor& self) {
  const Tensor mask = self.to(DType::Bool);
  const bool* p = mask.data<bool>();
  const int64_t n = mask.numel(), nd = mask.dim();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += p[i] ? 1 : 0;
  Tensor out = Tensor::empty({count, nd}, DType::Int64);
  int64_t* po = out.data<int64_t>();
  const std::vector<int64_t> strides = contiguous_strides(mask.shape());
  for (int64_t i = 0, row = 0; i < n; ++i) {
    if (!p[i]) continue;
    int64_t rest = i;
    for (int64_t d = 0; d < nd; ++d) {
      po[row * nd + d] = rest / strides[d];
      rest %= strides[d];
    }
    ++row;
  }
  return out;
}

// torch.nonzero(x, as_tuple=True) and torch.where(x): one 1-D long tensor of coordinates per
// dim; a 0-d tensor counts as 1-D, as PyTorch counts it.
IValue nonzero_tuple(const Tensor& self) {
  const Tensor t = self.dim() == 0 ? self.view_as_shape({1}) : self;
  ValueList items;
  for (Tensor& c : nonzero_coordinates(t)) items.push_back(IValue(std::move(c)));
  return IValue::list(std::move(items));
}

Shape size_arg(const IValue& v) {
  Shape s = v.to_int_list();
  for (int64_t d : s) {
    if (d < 0) fail("Trying to create tensor with negative dimension " + std::to_string(d));
  }
  return s;
}

// new_*: a tensor of `size` filled with `value`, of self's dtype unless given.
Tensor new_filled(const ValueList& a, double value, size_t dtype_at) {
  const Tensor self = tensor_arg(a[0]);
  const DType d = dtype_arg(a[dtype_at]).value_or(self.dtype());
  const IValue& device = a[dtype_at + 1];
  if (!device.is_none() && !(device.is_string() && device.to_string() == "cpu")) {
    fail("d2s runs on the CPU only; got device " + device.repr());
  }
  Tensor out = Tensor::full(size_arg(a[1]), value, d);
  if (a[dtype_at + 2].to_bool()) {
    if (d != DType::Float32) {
      fail("Only Tensors of floating point and complex dtype can require gradients");
    }
    out.set_requires_grad(true);
  }
  return out;
}

constexpr const char* kNewOptions =
    "ScalarType? dtype=None, Any? device=None, bool requires_grad=False) -> Tensor";

}  // namespace

void register_tensorops(OpRegistry& r) {
  using A = const ValueList&;
  auto t = [](const IValue& v) { return tensor_arg(v); };
  r.add(
      "aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar "
      "alpha=1) -> Tensor",
      [t](OpContext&, A a) { return tv(baddbmm(a[0], t(a[1]), t(a[2]), a[3], a[4])); },
      OpTag::NoOnnx);
  r.add(
      "aten::fmod.Tensor(Tensor self, Tensor other) -> Tensor",
      [](OpContext&, A a) { return tv(fmod(a[0], a[1])); }, OpTag::NoOnnx);
  r.add(
      "aten::fmod.Scalar(Tensor self, Scalar other) -> Tensor",
      [](OpContext&, A a) { return tv(fmod(a[0], a[1])); }, OpTag::NoOnnx);
  r.add(
      "aten::nonzero(Tensor self) -> Tensor", [t](OpContext&, A a) { return tv(nonzero(t(a[0]))); },
      OpTag::NoDerivative);
  // TorchScript's names: torch.jit.trace records nonzero(as_tuple=True) as nonzero_numpy.
  r.add(
      "aten::nonzero_numpy(Tensor self) -> Tensor[]",
      [t](OpContext&, A a) { return nonzero_tuple(t(a[0])); }, OpTag::NoDerivative | OpTag::NoOnnx);
  r.add(
      "aten::where(Tensor condition) -> Tensor[]",
      [t](OpContext&, A a) { return nonzero_tuple(t(a[0])); }, OpTag::NoDerivative);
  const std::string opts = kNewOptions;
  r.add(
      "aten::new_zeros(Tensor self, int[] size, *, " + opts,
      [](OpContext&, A a) { return tv(new_filled(a, 0, 2)); }, OpTag::NoDerivative | OpTag::NoOnnx);
  r.add(
      "aten::new_ones(Tensor self, int[] size, *, " + opts,
      [](OpContext&, A a) { return tv(new_filled(a, 1, 2)); }, OpTag::NoDerivative | OpTag::NoOnnx);
  // d2s's empty tensors are zeros (deterministic where PyTorch leaves memory as it is).
  r.add(
      "aten::new_empty(Tensor self, int[] size, *, " + opts,
      [](OpContext&, A a) { return tv(new_filled(a, 0, 2)); },
      OpTag::Nondeterministic | OpTag::NoDerivative | OpTag::NoOnnx);
  r.add(
      "aten::new_full(Tensor self, int[] size, Scalar fill_value, *, " + opts,
      [](OpContext&, A a) { return tv(new_filled(a, a[2].to_double(), 3)); },
      OpTag::NoDerivative | OpTag::NoOnnx);
}

}  // namespace d2s::kernels
