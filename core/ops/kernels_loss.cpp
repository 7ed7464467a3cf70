// The loss functions of torch.nn.functional beyond mse_loss (kernels_nn.cpp): l1_loss,
// smooth_l1_loss, nll_loss, cross_entropy_loss (class indices or class probabilities) and
// binary_cross_entropy_with_logits, with PyTorch 1.13's formulas, arguments and
// messages. Sums accumulate in double; results are float32. Their derivatives are in
// derivatives_loss.cpp and share the class-index helpers of loss_util.h.
#include <cmath>
#include <limits>

#include "core/ops/kernels.h"
#include "core/ops/loss_util.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

void require_float(const Tensor& t, const char* kernel) {
  if (t.dtype() != DType::Float32) {
    fail(std::string("\"") + kernel + "\" not implemented for '" + dtype_word(t.dtype()) + "'");
  }
}

// The elementwise losses: `f(input - target)` per element, then the reduction.
template <typename F>
Tensor pointwise_loss(const IValue& input, const IValue& target, const IValue& reduction,
                      const char* kernel, F f) {
  const loss::Reduction mode = loss::reduction_of(reduction);
  Tensor diff = binary_op(BinaryOp::Sub, input, target);
  require_float(diff, kernel);
  Tensor out = Tensor::empty(diff.shape(), DType::Float32);
  const float* d = diff.data<float>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < diff.numel(); ++i) o[i] = f(d[i]);
  return loss::reduce(out, mode);
}

Tensor nll_loss(const Tensor& logp, const Tensor& target, const IValue& weight,
                const IValue& reduction, int64_t ignore_index) {
  require_float(logp, "nll_loss_forward_reduce_cuda_kernel_2d_index");
  const loss::Reduction mode = loss::reduction_of(reduction);
  const loss::ClassLayout c = loss::class_layout(logp, target, weight);
  const Tensor w = loss::weight_of(weight);
  Tensor per = Tensor::empty(c.batched ? Shape{c.rows} : Shape{}, DType::Float32);
  double total = 0, weight_sum = 0;
  for (int64_t i = 0; i < c.rows; ++i) {
    const int64_t t = target.data<int64_t>()[i];
    if (t == ignore_index) {
      per.data<float>()[i] = 0;
      continue;
    }
    if (t < 0 || t >= c.classes) fail("Target " + std::to_string(t) + " is out of bounds.");
    const double wt = w.defined() ? w.data<float>()[t] : 1.0;
    const double v = -wt * logp.data<float>()[i * c.classes + t];
    per.data<float>()[i] = static_cast<float>(v);
    total += v;
    weight_sum += wt;
  }
  if (mode == loss::Reduction::None) return per;
  if (mode == loss::Reduction::Sum) return Tensor::scalar(total);
  // Mean: divided by the summed weights of the rows not ignored (NaN when none is left).
  return Tensor::scalar(weight_sum == 0 ? std::numeric_limits<double>::quiet_NaN()
                                        : total / weight_sum);
}

// PyTorch's cross_entropy_loss_prob_target: a float target of the input's shape holds
// class probabilities, smoothed to t (1 - e) + e / C; each row's loss is
// -sum_c w_c t_c logp_c, averaged over the rows for 'mean' (not over the weights).
Tensor cross_entropy_prob(const Tensor& input, const Tensor& target, const IValue& weight,
                          const IValue& reduction, int64_t ignore_index, double smoothing) {
  if (ignore_index != -100) fail("ignore_index is not supported for floating point target");
  const loss::Reduction mode = loss::reduction_of(reduction);
  const loss::ClassLayout c = loss::prob_layout(input, weight);
  const Tensor logp = loss::log_softmax_rows(input, c);
  const Tensor w = loss::weight_of(weight);
  const double k = smoothing / static_cast<double>(c.classes);
  Tensor per = Tensor::empty(c.batched ? Shape{c.rows} : Shape{}, DType::Float32);
  double total = 0;
  for (int64_t i = 0; i < c.rows; ++i) {
    double s = 0;
    for (int64_t j = 0; j < c.classes; ++j) {
      const int64_t at = i * c.classes + j;
      const double t = target.data<float>()[at] * (1 - smoothing) + k;
      s -= (w.defined() ? w.data<float>()[j] : 1.0) * t * logp.data<float>()[at];
    }
    per.data<float>()[i] = static_cast<float>(s);
    total += s;
  }
  if (mode == loss::Reduction::None) return per;
  if (mode == loss::Reduction::Sum) return Tensor::scalar(total);
  return Tensor::scalar(c.rows == 0 ? std::numeric_limits<double>::quiet_NaN()
                                    : total / static_cast<double>(c.rows));
}

Tensor cross_entropy(const Tensor& input, const Tensor& target, const IValue& weight,
                     const IValue& reduction, int64_t ignore_index, double smoothing) {
  require_float(input, "log_softmax_lastdim_kernel_impl");
  if (smoothing < 0 || smoothing > 1) {
    fail("label_smoothing must be between 0.0 and 1.0. Got: " + std::to_string(smoothing));
  }
  if (loss::is_prob_target(input, target)) {
    return cross_entropy_prob(input, target, weight, reduction, ignore_index, smoothing);
  }
  const loss::ClassLayout c = loss::class_layout(input, target, weight);
  const Tensor logp = loss::log_softmax_rows(input, c);
  Tensor nll = nll_loss(logp, target, weight, reduction, ignore_index);
  if (smoothing == 0) return nll;
  // PyTorch's cross_entropy_loss_label_smoothing: (1 - e) nll + e / C * smooth, where
  // smooth is -sum_c w_c logp_c per row (0 for ignored rows), summed or averaged.
  const loss::Reduction mode = loss::reduction_of(reduction);
  const Tensor w = loss::weight_of(weight);
  Tensor smooth = Tensor::empty(c.batched ? Shape{c.rows} : Shape{}, DType::Float32);
  double total = 0, weight_sum = 0;
  for (int64_t i = 0; i < c.rows; ++i) {
    const int64_t t = target.data<int64_t>()[i];
    double s = 0;
    if (t != ignore_index) {
      for (int64_t k = 0; k < c.classes; ++k) {
        s -= (w.defined() ? w.data<float>()[k] : 1.0) * logp.data<float>()[i * c.classes + k];
      }
      weight_sum += w.defined() ? w.data<float>()[t] : 1.0;
    }
    smooth.data<float>()[i] = static_cast<float>(s);
    total += s;
  }
  const double k = smoothing / static_cast<double>(c.classes);
  if (mode == loss::Reduction::None) {
    Tensor out = Tensor::empty(nll.shape(), DType::Float32);
    for (int64_t i = 0; i < c.rows; ++i) {
      out.data<float>()[i] =
          static_cast<float>((1 - smoothing) * nll.data<float>()[i] + smooth.data<float>()[i] * k);
    }
    return out;
  }
  // 'mean' divides by the summed weights of the rows kept (their count without weights),
  // as the nll term does (PyTorch 1.13: smooth_loss.sum() / true_mask.sum()).
  const double reduced = mode == loss::Reduction::Mean ? total / weight_sum : total;
  return Tensor::scalar((1 - smoothing) * nll.item() + reduced * k);
}

Tensor bce_with_logits(const Tensor& input, const IValue& target_v, const IValue& weight,
                       const IValue& pos_weight, const IValue& reduction) {
  require_float(input, "binary_cross_entropy_with_logits");
  const loss::Reduction mode = loss::reduction_of(reduction);
  const Tensor target = tensor_arg(target_v);
  if (target.shape() != input.shape()) {
    fail("Target size (torch.Size(" + shape_str(target.shape()) +
         ")) must be the same as input size (torch.Size(" + shape_str(input.shape()) + "))");
  }
  const Tensor t = target.to(DType::Float32);
  const Tensor pw = pos_weight.is_none() ? Tensor()
                                         : binary_op(BinaryOp::Mul, pos_weight,
                                                     IValue(Tensor::full(input.shape(), 1.0)));
  Tensor out = Tensor::empty(input.shape(), DType::Float32);
  for (int64_t i = 0; i < input.numel(); ++i) {
    const float x = input.data<float>()[i];
    const float ti = t.data<float>()[i];
    out.data<float>()[i] =
        loss::bce_logits_term(x, ti, pw.defined() ? pw.data<float>()[i] : 1.0f, pw.defined());
  }
  if (!weight.is_none()) out = binary_op(BinaryOp::Mul, IValue(out), weight);
  return loss::reduce(out, mode);
}

}  // namespace

void register_loss(OpRegistry& r) {
  using A = const ValueList&;
  r.add(
      "aten::l1_loss(Tensor input, Tensor target, Any reduction='mean') -> Tensor",
      [](OpContext&, A a) {
        return tv(pointwise_loss(a[0], a[1], a[2], "abs_cpu", [](float d) { return std::abs(d); }));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::smooth_l1_loss(Tensor input, Tensor target, Any reduction='mean', float beta=1.0) -> "
      "Tensor",
      [](OpContext&, A a) {
        const double beta = a[3].to_double();
        if (beta < 0) fail("smooth_l1_loss does not support negative values for beta.");
        const float b = static_cast<float>(beta);
        return tv(pointwise_loss(a[0], a[1], a[2], "smooth_l1_cpu", [b](float d) {
          const float z = std::abs(d);
          return z < b ? 0.5f * z * z / b : z - 0.5f * b;
        }));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::nll_loss(Tensor input, Tensor target, Tensor? weight=None, Any reduction='mean', "
      "int ignore_index=-100) -> Tensor",
      [](OpContext&, A a) {
        return tv(nll_loss(tensor_arg(a[0]), tensor_arg(a[1]), a[2], a[3], a[4].to_int()));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::cross_entropy_loss(Tensor input, Tensor target, Tensor? weight=None, "
      "Any reduction='mean', int ignore_index=-100, float label_smoothing=0.0) -> Tensor",
      [](OpContext&, A a) {
        return tv(cross_entropy(tensor_arg(a[0]), tensor_arg(a[1]), a[2], a[3], a[4].to_int(),
                                a[5].to_double()));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight=None, "
      "Tensor? pos_weight=None, Any reduction='mean') -> Tensor",
      [](OpContext&, A a) { return tv(bce_with_logits(tensor_arg(a[0]), a[1], a[2], a[3], a[4])); },
      OpTag::NoOnnx);
  register_ctc_loss(r);
}

}  // namespace d2s::kernels
