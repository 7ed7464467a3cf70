#include "core/ops/loss_util.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/base/error.h"

namespace d2s::loss {

namespace {

[[noreturn]] void fail(const std::string& message, const std::string& hint = "") {
  throw Error(message, SourceRange(), hint);
}

}  // namespace

Reduction reduction_of(const IValue& reduction) {
  if (reduction.is_string()) {
    const std::string& r = reduction.to_string();
    if (r == "none") return Reduction::None;
    if (r == "mean") return Reduction::Mean;
    if (r == "sum") return Reduction::Sum;
    fail(r + " is not a valid value for reduction");
  }
  if (reduction.is_int() && reduction.to_int() >= 0 && reduction.to_int() <= 2) {
    return static_cast<Reduction>(reduction.to_int());
  }
  fail("reduction must be 'none', 'mean' or 'sum'");
}

Tensor reduce(const Tensor& per, Reduction mode) {
  if (mode == Reduction::None) return per;
  double s = 0;
  const float* p = per.data<float>();
  for (int64_t i = 0; i < per.numel(); ++i) s += p[i];
  if (mode == Reduction::Mean) {
    s = per.numel() ? s / static_cast<double>(per.numel())
                    : std::numeric_limits<double>::quiet_NaN();
  }
  return Tensor::scalar(s);
}

namespace {

void check_weight(const IValue& weight, int64_t classes) {
  if (!weight.is_none()) {
    if (!weight.is_tensor() || weight.to_tensor().numel() != classes) {
      fail("weight tensor should be defined either for all " + std::to_string(classes) +
           " classes or no classes but got weight tensor of shape: [" +
           (weight.is_tensor() ? std::to_string(weight.to_tensor().numel()) : std::string()) + "]");
    }
  }
}

}  // namespace

ClassLayout class_layout(const Tensor& input, const Tensor& target, const IValue& weight) {
  ClassLayout c;
  if (input.dim() < 1 || input.dim() > 2) {
    fail("d2s's nll_loss and cross_entropy take input of shape [C] or [N, C], got " +
         std::to_string(input.dim()) + "D (class-index targets)");
  }
  if (target.dtype() != DType::Int64) {
    fail(std::string("expected scalar type Long but found ") +
             (target.dtype() == DType::Float32 ? "Float" : "Bool"),
         "the target holds class indices as int64 (torch.tensor([0, 2]), y.long()); "
         "class probabilities are a float target of the input's shape");
  }
  c.batched = input.dim() == 2;
  c.rows = c.batched ? input.size(0) : 1;
  c.classes = input.size(-1);
  if (c.batched ? (target.dim() != 1) : (target.dim() != 0)) {
    fail(c.batched ? "1D target tensor expected, multi-target not supported"
                   : "0D or 1D target tensor expected, multi-target not supported");
  }
  if (c.batched && target.size(0) != c.rows) {
    fail("Expected input batch_size (" + std::to_string(c.rows) + ") to match target batch_size (" +
         std::to_string(target.size(0)) + ").");
  }
  check_weight(weight, c.classes);
  return c;
}

bool is_prob_target(const Tensor& input, const Tensor& target) {
  return target.dtype() == DType::Float32 && target.shape() == input.shape();
}

ClassLayout prob_layout(const Tensor& input, const IValue& weight) {
  if (input.dim() < 1 || input.dim() > 2) {
    fail("d2s's cross_entropy takes input of shape [C] or [N, C], got " +
         std::to_string(input.dim()) + "D (class-probability targets)");
  }
  ClassLayout c;
  c.batched = input.dim() == 2;
  c.rows = c.batched ? input.size(0) : 1;
  c.classes = input.size(-1);
  check_weight(weight, c.classes);
  return c;
}

Tensor weight_of(const IValue& weight) {
  return weight.is_none() ? Tensor() : weight.to_tensor().to(DType::Float32);
}

Tensor log_softmax_rows(const Tensor& input, const ClassLayout& c) {
  Tensor out = Tensor::empty(input.shape(), DType::Float32);
  const float* x = input.data<float>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < c.rows; ++i) {
    const float* row = x + i * c.classes;
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < c.classes; ++k) m = std::max(m, static_cast<double>(row[k]));
    double s = 0;
    for (int64_t k = 0; k < c.classes; ++k) s += std::exp(row[k] - m);
    const double lse = m + std::log(s);
    for (int64_t k = 0; k < c.classes; ++k) o[i * c.classes + k] = static_cast<float>(row[k] - lse);
  }
  return out;
}

float bce_logits_term(float x, float t, float pos_weight, bool has_pos_weight) {
  const float m = std::max(-x, 0.0f);
  const float softplus_neg = std::log(std::exp(-m) + std::exp(-x - m)) + m;  // log(1 + e^-x)
  const float lw = has_pos_weight ? (pos_weight - 1) * t + 1 : 1.0f;
  return (1 - t) * x + lw * softplus_neg;
}

}  // namespace d2s::loss
