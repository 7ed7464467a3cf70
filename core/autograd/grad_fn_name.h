// The name PyTorch 1.13 prints for a tensor's grad_fn (`grad_fn=<MulBackward0>` in
// its repr), from the op that made it: the class names of torch/csrc/autograd's
// generated Function nodes, which follow derivatives.yaml (one class per overload,
// numbered, and for composite ops the node of the last op they decompose into).
//
//   std::string name = grad_fn_name(t);   // "AddmmBackward0"; "" for a leaf
#pragma once

#include <string>

#include "core/tensor/tensor.h"

namespace d2s {

// Empty when `t` has no grad_fn (a leaf, or a tensor without autograd history).
std::string grad_fn_name(const Tensor& t);

struct GradNode;
// The name of one node of the tape; empty when it records no op.
std::string grad_fn_name(const GradNode& node);

}  // namespace d2s
