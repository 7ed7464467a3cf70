// The in-place activations and regularisers that model code writes (`nn.SiLU(inplace=True)`,
// `F.leaky_relu(x, 0.2, True)`, `x.sigmoid_()`, `F.dropout(x, p, training, True)`): each
// is its out-of-place op's kernel, written back into self (write_in_place), so the two
// forms give the same numbers and dropout_ draws from the generator exactly as dropout
// does. Their derivatives are in derivatives_inplace.cpp. (relu_ and clamp_ are in
// kernels_unary.cpp, add_ ... div_ in kernels_elementwise.cpp.)
#include <string>
#include <utility>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

struct InPlaceForm {
  const char* schema;        // the in-place op's schema, self marked Tensor(a!)
  const char* out_of_place;  // the qualified op it writes back: same arguments, in order
};

// PyTorch 1.13's schemas (native_functions.yaml); TorchScript records these names.
constexpr InPlaceForm kForms[] = {
    {"aten::sigmoid_(Tensor(a!) self) -> Tensor(a!)", "aten::sigmoid"},
    {"aten::tanh_(Tensor(a!) self) -> Tensor(a!)", "aten::tanh"},
    {"aten::clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", "aten::clamp_min"},
    {"aten::clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", "aten::clamp_max"},
    {"aten::leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)",
     "aten::leaky_relu"},
    {"aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)",
     "aten::hardtanh"},
    {"aten::relu6_(Tensor(a!) self) -> Tensor(a!)", "aten::relu6"},
    {"aten::elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> "
     "Tensor(a!)",
     "aten::elu"},
    {"aten::selu_(Tensor(a!) self) -> Tensor(a!)", "aten::selu"},
    {"aten::silu_(Tensor(a!) self) -> Tensor(a!)", "aten::silu"},
    {"aten::dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", "aten::dropout"},
    {"aten::feature_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)",
     "aten::feature_dropout"},
};

}  // namespace

void register_inplace(OpRegistry& r) {
  for (const InPlaceForm& form : kForms) {
    const OpDef* base = r.find_qualified(form.out_of_place);
    if (!base) fail(std::string("internal error: ") + form.out_of_place + " is not registered");
    Kernel kernel = base->kernel;
    r.add(
        form.schema,
        [kernel](OpContext& ctx, const ValueList& a) {
          return IValue(write_in_place(a[0], tensor_arg(kernel(ctx, a))));
        },
        base->tags);
  }
}

}  // namespace d2s::kernels
