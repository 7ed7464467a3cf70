// torch.nn.functional functions whose Python signature is not their op's schema:
// F.batch_norm (running statistics before weight and bias, no cudnn flag),
// F.dropout and F.dropout2d (training=True by default, where the op's own default is
// the run's mode or required), the activations with an `inplace` flag (F.relu,
// F.leaky_relu, F.elu, F.hardtanh, F.relu6, F.selu, F.silu), which call their in-place
// op (aten::relu_, ...) when it is True, and F.max_pool2d, whose `return_indices=True`
// calls aten::max_pool2d_with_indices (PyTorch's boolean dispatch). Both routes bind the Python
// signature and call the op with its arguments in the schema's order, so the graph holds
// TorchScript's op.
#pragma once

#include <string>
#include <vector>

#include "trace/interp.h"

namespace d2s::interp {

struct FunctionalSignature {
  const char* qualname;  // "torch.nn.functional.batch_norm"
  const char* op;        // "aten::batch_norm"
  std::vector<ParamSpec> params;
  // For each argument of the op: the index of the Python parameter it takes, or -1 for
  // the constant at the same position of `constants`.
  std::vector<int> op_args;
  std::vector<IValue> constants;
  // A flag parameter (`inplace`, `return_indices`), or -1: when it is True the call
  // runs `flag_op` with the same arguments (PyTorch's F.relu(x, inplace=True) runs
  // torch.relu_(x); F.max_pool2d(x, 2, return_indices=True) runs
  // torch.max_pool2d_with_indices).
  int flag = -1;
  const char* flag_op = nullptr;
  // A parameter for which None means its default, or -1 (F.max_pool2d's stride=None is
  // the kernel size, which the op spells as an empty list).
  int none_means_default = -1;
};

// The signature of `qualname`, or null for a function bound by its op's schema.
const FunctionalSignature* functional_signature(const std::string& qualname);

}  // namespace d2s::interp
