// What the tensor room shows of the autograd above it, installed by the autograd
// (as PyTorch's VariableHooks let c10 ask torch/csrc/autograd): a tensor's repr names
// its grad_fn ("grad_fn=<AddBackward0>"), and the names are the autograd's.
#pragma once

#include <string>

#include "core/tensor/tensor.h"

namespace d2s {

using GradFnNamer = std::string (*)(const Tensor&);

// Installed by core/autograd before it gives any tensor a grad_fn, so a tensor that
// has one always finds its namer.
void set_grad_fn_namer(GradFnNamer namer);

// The Python name of t's grad_fn, or "" when it has none.
std::string grad_fn_name_for_repr(const Tensor& t);

}  // namespace d2s
