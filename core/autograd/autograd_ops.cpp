// aten::backward as a graph op: a parsed script or function that calls
// `loss.backward()` keeps the call as a node with an effect (dead-code elimination
// never drops it), and the executor runs autograd on what the run taped, as eager
// mode does (core/autograd/autograd.h).
#include "core/autograd/autograd.h"
#include "core/ops/kernels.h"

namespace d2s::kernels {

void register_autograd_ops(OpRegistry& r) {
  r.add(
      "aten::backward(Tensor self, Tensor? gradient=None, bool? retain_graph=None, "
      "bool create_graph=False) -> ()",
      [](OpContext&, const ValueList& a) {
        backward(a[0].to_tensor(), a[1].is_tensor() ? a[1].to_tensor() : Tensor());
        return IValue();
      },
      OpTag::NoOnnx);
}

}  // namespace d2s::kernels
