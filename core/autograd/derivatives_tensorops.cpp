// Derivatives of core/ops/kernels_tensorops.cpp and kernels_diagonal.cpp: baddbmm (beta * g to
// self, alpha * the bmm gradients to the batches) and fmod (g to self; -g * trunc(self / other) to
// other, PyTorch's formula).
#include "core/autograd/derivatives_util.h"
#include "core/autograd/views.h"
#include "core/ops/kernels.h"
#include "core/ops/kernels_einsum.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

ValueList baddbmm_grad(In in) {
  const Tensor& g = in.grads[0];
  const double beta = number_of(in.args[3]), alpha = number_of(in.args[4]);
  const Tensor b1 = tensor_of(in.args[1]), b2 = tensor_of(in.args[2]);
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], scale(g, beta));
  if (wants_grad(in.args[1])) {
    out[1] = IValue(scale(op("aten::bmm", {IValue(g), IValue(transpose_last(b2))}), alpha));
  }
  if (wants_grad(in.args[2])) {
    out[2] = IValue(scale(op("aten::bmm", {IValue(transpose_last(b1)), IValue(g)}), alpha));
  }
  return out;
}

ValueList fmod_grad(In in) {
  const Tensor& g = in.grads[0];
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], g);
  if (wants_grad(in.args[1])) {
    const Tensor q = op("aten::trunc", {IValue(div(tensor_of(in.args[0]), tensor_of(in.args[1])))});
    out[1] = grad_for(in.args[1], neg(mul(g, q)));
  }
  return out;
}

// einsum: operand k's gradient is the einsum of g with the other operands onto k's
// letters (letters only k has get k's sizes: g does not vary along them), summed back
// where k broadcast a size-1 dim.
ValueList einsum_grad(In in) {
  std::vector<Tensor> ts;
  for (const IValue& v : in.args[1].items()) ts.push_back(tensor_of(v));
  const kernels::EinsumEquation eq =
      kernels::parse_einsum(in.args[0].to_string(), kernels::einsum_ranks(ts));
  ValueList parts;
  for (size_t k = 0; k < ts.size(); ++k) {
    if (!wants_grad(in.args[1].items()[k])) {
      parts.push_back(IValue());
      continue;
    }
    kernels::EinsumEquation back;
    back.inputs.push_back(eq.output);
    std::vector<Tensor> operands{in.grads[0]};
    for (size_t j = 0; j < ts.size(); ++j) {
      if (j == k) continue;
      back.inputs.push_back(eq.inputs[j]);
      operands.push_back(ts[j]);
    }
    back.output = eq.inputs[k];
    std::map<char, int64_t> own;
    for (size_t i = 0; i < eq.inputs[k].size(); ++i) own[eq.inputs[k][i]] = ts[k].shape()[i];
    for (const std::string& t : back.inputs) {
      for (char c : t) own.erase(c);
    }
    parts.push_back(IValue(sum_to(kernels::einsum_with(back, operands, own), ts[k].shape())));
  }
  ValueList out(in.args.size());
  out[1] = IValue::list(std::move(parts));
  return out;
}

// diagonal: g laid back on the diagonal of zeros; diagonal_scatter: self gets g with the
// diagonal zeroed, src the diagonal of g; diag_embed: the diagonal of g.
ValueList diagonal_grad(In in) {
  const Tensor zeros = Tensor::zeros(in.args[0].to_tensor().shape());
  return first_only(in, op("aten::diagonal_scatter", {IValue(zeros), IValue(in.grads[0]),
                                                      in.args[1], in.args[2], in.args[3]}));
}

ValueList diagonal_scatter_grad(In in) {
  const Tensor& g = in.grads[0];
  const Tensor part = op("aten::diagonal", {IValue(g), in.args[2], in.args[3], in.args[4]});
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) {
    out[0] = IValue(op("aten::diagonal_scatter", {IValue(g), IValue(Tensor::zeros(part.shape())),
                                                  in.args[2], in.args[3], in.args[4]}));
  }
  if (wants_grad(in.args[1])) out[1] = grad_for(in.args[1], part);
  return out;
}

ValueList diag_embed_grad(In in) {
  return first_only(
      in, op("aten::diagonal", {IValue(in.grads[0]), in.args[1], in.args[2], in.args[3]}));
}

// as_strided, PyTorch's as_strided_backward: g added at the storage positions it was read
// from (repeats add up), then read back through self's own place in the storage (its
// strides and offset: a root's are row-major from 0; record_op keeps a view's), divided
// where self's elements share a position. Storage positions self does not cover get none.
ValueList as_strided_grad(In in) {
  const Tensor self = tensor_of(in.args[0]);
  const ViewMeta* meta = self.impl()->view.get();
  const int64_t storage_numel = meta ? meta->base.numel() : self.numel();
  const int64_t self_offset = meta ? meta->offset : 0;
  const int64_t offset = in.args[3].is_none() ? self_offset : in.args[3].to_int();
  const std::vector<int64_t> read = kernels::as_strided_positions(
      in.args[1].to_int_list(), in.args[2].to_int_list(), offset, storage_numel);
  const Shape& shape = self.shape();
  const std::vector<int64_t> own = kernels::as_strided_positions(
      shape, meta ? meta->strides : strides_of(self), self_offset, storage_numel);
  const Tensor g = in.grads[0].to(DType::Float32);
  const float* pg = g.data<float>();
  std::vector<float> storage(static_cast<size_t>(storage_numel), 0.0f);
  std::vector<int64_t> count(static_cast<size_t>(storage_numel), 0);
  for (size_t k = 0; k < read.size(); ++k) storage[static_cast<size_t>(read[k])] += pg[k];
  for (int64_t p : own) ++count[static_cast<size_t>(p)];
  Tensor out = Tensor::empty(shape, DType::Float32);
  float* po = out.data<float>();
  for (size_t j = 0; j < own.size(); ++j) {
    const size_t p = static_cast<size_t>(own[j]);
    po[j] = count[p] > 1 ? storage[p] / static_cast<float>(count[p]) : storage[p];
  }
  return first_only(in, out);
}

}  // namespace

void register_derivatives_tensorops(OpRegistry& r) {
  r.set_derivative("aten::baddbmm", baddbmm_grad, SavedData::args({1, 2}));
  r.set_derivative("aten::fmod.Tensor", fmod_grad, SavedData::args({0, 1}));
  r.set_derivative("aten::fmod.Scalar", fmod_grad, SavedData::nothing());
  r.set_derivative("aten::einsum", einsum_grad, SavedData::args({1}));
  // These read only shapes and the diagonal's place.
  r.set_derivative("aten::diagonal", diagonal_grad, SavedData::nothing());
  r.set_derivative("aten::diagonal_scatter", diagonal_scatter_grad, SavedData::nothing());
  r.set_derivative("aten::diag_embed", diag_embed_grad, SavedData::nothing());
  r.set_derivative("aten::as_strided", as_strided_grad, SavedData::nothing());
}

}  // namespace d2s::grad
