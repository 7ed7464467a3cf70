// torch.nn.functional functions whose Python signature is not their op's schema:
// F.batch_norm (running statistics before weight and bias, no cudnn flag),
// F.dropout and F.dropout2d (training=True by default, where the op's own default is
// the run's mode or required), and the activations with an `inplace` flag (F.relu,
// F.leaky_relu, F.elu, F.hardtanh, F.relu6, F.selu, F.silu), which call their in-place
// op (aten::relu_, ...) when it is True. Both routes bind the Python signature and call
// the op with its arguments in the schema's order, so the graph holds TorchScript's op.
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
  // The `inplace` parameter, or -1: when it is True the call runs `inplace_op` with the
  // same arguments (PyTorch's F.relu(x, inplace=True) runs torch.relu_(x)).
  int inplace = -1;
  const char* inplace_op = nullptr;
};

// The signature of `qualname`, or null for a function bound by its op's schema.
const FunctionalSignature* functional_signature(const std::string& qualname);

}  // namespace d2s::interp
