// Derivatives of kl_div and binary_cross_entropy (core/ops/kernels_loss_prob.cpp), with
// PyTorch 1.13's values at the edges: kl_div's target gradient is NaN where the target
// is 0 (xlogy's), binary_cross_entropy's input gradient divides by max(x (1 - x), 1e-12).
#include <cmath>
#include <limits>

#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"
#include "core/ops/loss_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

// The upstream gradient of the reduced loss over every element of `shape`.
Tensor spread_over(const Tensor& g, const Shape& shape, const IValue& reduction, int64_t batch) {
  if (reduction.is_string() && reduction.to_string() == "batchmean") {
    Tensor out = op("aten::expand", {IValue(g), IValue::int_list(shape)});
    return batch > 0 ? scale(out, 1.0 / static_cast<double>(batch)) : out;
  }
  const loss::Reduction mode = loss::reduction_of(reduction);
  if (mode == loss::Reduction::None)
    return op("aten::expand", {IValue(g), IValue::int_list(shape)});
  Tensor out = op("aten::expand", {IValue(g), IValue::int_list(shape)});
  if (mode == loss::Reduction::Mean)
    out = scale(out, 1.0 / static_cast<double>(shape_numel(shape)));
  return out;
}

// kl_div: d/dx = -t (or -e^t), d/dt = log t + 1 - x (or e^t (t - x + 1)).
ValueList kl_div_grad(In in) {
  const Tensor x0 = tensor_of(in.args[0]);
  const Tensor t0 = tensor_of(in.args[1]);
  const Tensor x = op("aten::add", {IValue(x0), IValue(Tensor::zeros(t0.shape()))});
  const Tensor t = op("aten::add", {IValue(t0), IValue(Tensor::zeros(x0.shape()))});
  const bool log_target = in.args[3].to_bool();
  const int64_t batch = x0.dim() ? x0.shape()[0] : 0;
  const Tensor g = spread_over(in.grads[0], x.shape(), in.args[2], batch).to(DType::Float32);
  const Tensor gx = map3(g, t, Tensor(), [log_target](float gi, float ti, float) {
    return -gi * (log_target ? std::exp(ti) : ti);
  });
  const Tensor gt = map3(g, t, x, [log_target](float gi, float ti, float xi) {
    if (log_target) return gi * std::exp(ti) * (ti - xi + 1);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    return gi * ((ti != 0 ? std::log(ti) : 0.0f) + (ti != 0 ? 1.0f : nan) - xi);
  });
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], gx);
  if (wants_grad(in.args[1])) out[1] = grad_for(in.args[1], gt);
  return out;
}

// binary_cross_entropy: d/dx = w (x - t) / max(x (1 - x), 1e-12),
// d/dt = w (log(1 - x) - log x).
ValueList bce_grad(In in) {
  const Tensor x = tensor_of(in.args[0]).to(DType::Float32);
  const Tensor t = tensor_of(in.args[1]).to(DType::Float32);
  Tensor g = spread_over(in.grads[0], x.shape(), in.args[3], 0);
  if (!in.args[2].is_none()) g = op("aten::mul", {IValue(g), in.args[2]});
  g = op("aten::mul", {IValue(g), IValue(Tensor::full(x.shape(), 1.0))}).to(DType::Float32);
  const Tensor gx = map3(g, x, t, [](float gi, float xi, float ti) {
    return gi * (xi - ti) / std::max((1 - xi) * xi, 1e-12f);
  });
  const Tensor gt = map3(g, x, Tensor(), [](float gi, float xi, float) {
    return gi * (std::log1p(-xi) - std::log(xi));
  });
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], gx);
  if (wants_grad(in.args[1])) out[1] = grad_for(in.args[1], gt);
  return out;
}

}  // namespace

void register_derivatives_loss_prob(OpRegistry& r) {
  r.set_derivative("aten::kl_div", kl_div_grad, SavedData::args({0, 1}));
  r.set_derivative("aten::binary_cross_entropy", bce_grad, SavedData::args({0, 1, 2}));
}

}  // namespace d2s::grad
