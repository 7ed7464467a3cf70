// Internal to core/: what the loss kernels (kernels_loss.cpp, kernels_nn.cpp) and their
// derivatives (derivatives_loss.cpp) share: the reduction argument, the class-index
// layout of nll_loss / cross_entropy, and the binary cross-entropy term.
#pragma once

#include <cstdint>

#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s::loss {

// PyTorch's reduction enum; the argument is the string F.* takes or the int
// TorchScript passes (0 none, 1 mean, 2 sum).
enum class Reduction { None = 0, Mean = 1, Sum = 2 };
Reduction reduction_of(const IValue& reduction);
// The per-element losses `per` reduced: itself, their mean (NaN when empty), or sum.
Tensor reduce(const Tensor& per, Reduction mode);

// Input [N, C] with target [N] (batched), or input [C] with a 0-d target: `rows`
// rows of `classes` scores. Checks PyTorch's conditions (target dtype, sizes, class
// range, weight size) with its messages.
struct ClassLayout {
  int64_t rows = 0;
  int64_t classes = 0;
  bool batched = true;
};
ClassLayout class_layout(const Tensor& input, const Tensor& target, const IValue& weight);
// cross_entropy's targets of class probabilities: a float target of the input's shape
// (PyTorch's test), and the layout of such an input ([C] or [N, C]) with the weight's check.
bool is_prob_target(const Tensor& input, const Tensor& target);
ClassLayout prob_layout(const Tensor& input, const IValue& weight);
// The class weights as a float tensor, or undefined for None.
Tensor weight_of(const IValue& weight);
// log_softmax over each row's classes, in double, as float32.
Tensor log_softmax_rows(const Tensor& input, const ClassLayout& c);

// One element of binary_cross_entropy_with_logits, PyTorch 1.13's stable form:
// (1 - t) x + lw (log(exp(-m) + exp(-x - m)) + m), m = max(-x, 0), lw = (pw - 1) t + 1.
float bce_logits_term(float x, float t, float pos_weight, bool has_pos_weight);

}  // namespace d2s::loss
