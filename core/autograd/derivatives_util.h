// Internal to core/autograd/derivatives_*.cpp: what the derivative formulas share.
//
// Formulas are written with ops of the registry (called untaped: backward() runs
// with grad mode off) and a few float loops, on the arguments and result a GradNode
// saved. Each register_derivatives_* function attaches its family's formulas.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/autograd/autograd.h"
#include "core/ops/op_registry.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s::grad {

void register_derivatives_elementwise(OpRegistry& r);  // binary, where, in-place
void register_derivatives_unary(OpRegistry& r);        // unary math, clamp
void register_derivatives_reduce(OpRegistry& r);       // sum, mean, max, norm, ...
void register_derivatives_linalg(OpRegistry& r);       // mm, matmul, linear, t, ...
void register_derivatives_nn(OpRegistry& r);           // activations, softmax, norms, losses
void register_derivatives_shape(OpRegistry& r);
void register_derivatives_conv(OpRegistry& r);        // convolution, pooling
void register_derivatives_activation(OpRegistry& r);  // hardtanh, relu6, elu, selu
void register_derivatives_ctc(OpRegistry& r);         // ctc_loss (ctc_loss.cpp)
void register_derivatives_norm(OpRegistry& r);        // batch_norm, group_norm, prelu, glu
void register_derivatives_loss_prob(OpRegistry& r);   // kl_div, binary_cross_entropy
void register_derivatives_rnn(OpRegistry& r);         // lstm, gru, rnn_*, their cells, embedding
void register_derivatives_index(OpRegistry& r);       // index, index_put
void register_derivatives_sort(OpRegistry& r);        // sort, topk, cumsum, gather, ...
void register_derivatives_tensorops(OpRegistry& r);   // baddbmm, fmod
void register_derivatives_loss(OpRegistry& r);  // l1, smooth_l1, nll, cross_entropy, bce        //
                                                // views, cat, select, slice, ...

// conv_transpose, upsample_*, pixel_shuffle/unshuffle, pad (derivatives_resize.cpp).
void register_derivatives_resize(OpRegistry& r);

// Calls a registry op by base name and returns its tensor result.
Tensor op(std::string_view name, const ValueList& args);
Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor scale(const Tensor& a, double s);
Tensor neg(const Tensor& a);
Tensor transpose_last(const Tensor& a);  // swaps the last two dims
Tensor reshape(const Tensor& a, const Shape& shape);

// The sum of a broadcast gradient back to `shape` (undoes broadcasting).
Tensor sum_to(const Tensor& g, const Shape& shape);
// The gradient of an argument that may be a Python number or a non-float tensor:
// None for those, else g summed to the argument's shape.
IValue grad_for(const IValue& arg, const Tensor& g);
bool wants_grad(const IValue& arg);  // a float tensor
// The gradients of an op whose only differentiable argument is the first: g for it
// (when it wants one), None for every other argument.
ValueList first_only(const GradInputs& in, Tensor g);

// A reduction's gradient put back where the reduced dims were (keepdim): `dims`
// are the reduced dims of an input of rank `rank` (all when empty).
Tensor unsqueeze_dims(const Tensor& g, const std::vector<int64_t>& dims, int64_t rank,
                      bool keepdim);
// The dims a reduction's `int[1]? dim` argument names, wrapped; all for None or [].
std::vector<int64_t> reduce_dims_of(const IValue& dim, int64_t rank);

// out[i] = f(a[i], b[i], c[i]) over float tensors of one shape (b, c may be
// undefined when f ignores them).
template <typename F>
Tensor map3(const Tensor& a, const Tensor& b, const Tensor& c, F f) {
  Tensor out = Tensor::empty(a.shape(), DType::Float32);
  const Tensor fa = a.to(DType::Float32);
  const Tensor fb = b.defined() ? b.to(DType::Float32) : fa;
  const Tensor fc = c.defined() ? c.to(DType::Float32) : fa;
  const float* pa = fa.data<float>();
  const float* pb = fb.data<float>();
  const float* pc = fc.data<float>();
  float* po = out.data<float>();
  const int64_t n = out.numel();
  for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i], pc[i]);
  return out;
}

// Tensor arguments as a Python number or a tensor, and number arguments.
Tensor tensor_of(const IValue& v);
double number_of(const IValue& v);

// The result of a GradInputs as one tensor, and its single gradient.
inline const Tensor& result_tensor(const GradInputs& in) {
  return in.result.to_tensor();
}

// ValueList{...} with None for the arguments that get no gradient.
inline ValueList grads(std::initializer_list<IValue> items) {
  return ValueList(items);
}

}  // namespace d2s::grad
