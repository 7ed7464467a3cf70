// The losses between probabilities: kl_div (with F.kl_div's 'batchmean' and
// log_target) and binary_cross_entropy (input already a probability, logs clamped at
// -100 as PyTorch clamps them), with PyTorch 1.13's formulas and messages. Sums
// accumulate in double; results are float32. Derivatives in derivatives_loss_prob.cpp.
#include <cmath>

#include "core/ops/kernels.h"
#include "core/ops/loss_util.h"
#include "core/tensor/grad_mode.h"

namespace d2s::kernels {

namespace {

void require_float(const Tensor& t, const char* kernel) {
  if (t.dtype() != DType::Float32) {
    fail(std::string("\"") + kernel + "\" not implemented for '" + dtype_word(t.dtype()) + "'");
  }
}

// The per-element KL term: t (log t - x), 0 where t is 0 (xlogy), or e^t (t - x) for
// a target given as a log.
Tensor kl_div(const Tensor& input, const Tensor& target, const IValue& reduction, bool log_target) {
  const Tensor x = binary_op(BinaryOp::Add, IValue(input), IValue(Tensor::zeros(target.shape())));
  const Tensor t = binary_op(BinaryOp::Add, IValue(target), IValue(Tensor::zeros(input.shape())));
  require_float(x, "kl_div");
  require_float(t, "kl_div");
  Tensor per = Tensor::empty(x.shape(), DType::Float32);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const float xi = x.data<float>()[i], ti = t.data<float>()[i];
    per.data<float>()[i] =
        log_target ? std::exp(ti) * (ti - xi) : (ti == 0 ? 0.0f : ti * std::log(ti)) - ti * xi;
  }
  const bool batchmean = reduction.is_string() && reduction.to_string() == "batchmean";
  if (!batchmean) return loss::reduce(per, loss::reduction_of(reduction));
  Tensor sum = loss::reduce(per, loss::Reduction::Sum);
  // F.kl_div divides the sum by input.size(0); a 0-d input keeps the sum.
  if (input.dim() == 0) return sum;
  return Tensor::scalar(sum.value_at(0) / static_cast<double>(input.shape()[0]));
}

std::string size_repr(const Shape& s) {
  std::string out = "torch.Size([";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "])";
}

Tensor binary_cross_entropy(const Tensor& x, const Tensor& target, const IValue& weight,
                            const IValue& reduction) {
  if (target.shape() != x.shape()) {
    fail("ValueError: Using a target size (" + size_repr(target.shape()) +
         ") that is different to the input size (" + size_repr(x.shape()) +
         ") is deprecated. Please ensure they have the same size.");
  }
  require_float(x, "binary_cross_entropy");
  if (!weight.is_none() && weight.is_tensor() && weight.to_tensor().requires_grad() &&
      grad_mode_enabled()) {
    fail(
        "The function 'binary_cross_entropy' is not differentiable with respect to argument "
        "'weight'. This input cannot have requires_grad True.");
  }
  const loss::Reduction mode = loss::reduction_of(reduction);
  const Tensor t = as_dtype(target, DType::Float32);
  const Tensor w = weight.is_none()
                       ? Tensor()
                       : binary_op(BinaryOp::Mul, weight, IValue(Tensor::full(x.shape(), 1.0)));
  Tensor per = Tensor::empty(x.shape(), DType::Float32);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const float xi = x.data<float>()[i], ti = t.data<float>()[i];
    if (!(xi >= 0 && xi <= 1)) fail("all elements of input should be between 0 and 1");
    const float log_x = std::max(std::log(xi), -100.0f);
    const float log_1mx = std::max(std::log1p(-xi), -100.0f);
    float v = (ti - 1) * log_1mx - ti * log_x;
    if (w.defined()) v *= w.data<float>()[i];
    per.data<float>()[i] = v;
  }
  return loss::reduce(per, mode);
}

}  // namespace

void register_loss_prob(OpRegistry& r) {
  using A = const ValueList&;
  r.add(
      "aten::kl_div(Tensor input, Tensor target, Any reduction='mean', bool log_target=False) "
      "-> Tensor",
      [](OpContext&, A a) {
        return IValue(kl_div(tensor_arg(a[0]), tensor_arg(a[1]), a[2], a[3].to_bool()));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::binary_cross_entropy(Tensor input, Tensor target, Tensor? weight=None, "
      "Any reduction='mean') -> Tensor",
      [](OpContext&, A a) {
        return IValue(binary_cross_entropy(tensor_arg(a[0]), tensor_arg(a[1]), a[2], a[3]));
      },
      OpTag::NoOnnx);
}

}  // namespace d2s::kernels
