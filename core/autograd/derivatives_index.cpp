// Derivatives of advanced indexing (core/ops/kernels_index.cpp), as PyTorch's
// derivatives.yaml has them: index's gradient puts g back where it was read,
// accumulating at repeated indices (index_put with accumulate into zeros); index_put's
// self gets g except where values were written (everywhere, with accumulate), and
// values get g read back at the indices, summed over the broadcast.
#include "core/autograd/derivatives_util.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

ValueList index_grad(In in) {
  const Tensor& x = in.args[0].to_tensor();
  const Tensor zeros = Tensor::zeros(x.shape());
  Tensor g = op("aten::index_put", {IValue(zeros), in.args[1], IValue(in.grads[0]), IValue(true)});
  return first_only(in, g);
}

ValueList index_put_grad(In in) {
  const IValue& indices = in.args[1];
  const Tensor& g = in.grads[0];
  const bool accumulate = in.args[3].to_bool();
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) {
    out[0] = accumulate
                 ? IValue(g)
                 : IValue(op("aten::index_put", {IValue(g), indices, IValue(0.0), IValue(false)}));
  }
  out[2] = grad_for(in.args[2], op("aten::index", {IValue(g), indices}));
  return out;
}

}  // namespace

void register_derivatives_index(OpRegistry& r) {
  // They read the indices only (shapes aside), never self's or values' data.
  r.set_derivative("aten::index.Tensor", index_grad, SavedData::args({1}));
  for (const char* name : {"aten::index_put", "aten::index_put_"}) {
    r.set_derivative(name, index_put_grad, SavedData::args({1}));
  }
}

}  // namespace d2s::grad
