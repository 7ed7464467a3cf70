// The Python signatures of functional_signatures.h.
#include "trace/functional_signatures.h"

namespace d2s::interp {

const FunctionalSignature* functional_signature(const std::string& qualname) {
  static const std::vector<FunctionalSignature> table = {
      {"torch.nn.functional.batch_norm",
       "aten::batch_norm",
       {{"input", std::nullopt},
        {"running_mean", std::nullopt},
        {"running_var", std::nullopt},
        {"weight", IValue()},
        {"bias", IValue()},
        {"training", IValue(false)},
        {"momentum", IValue(0.1)},
        {"eps", IValue(1e-5)}},
       {0, 3, 4, 1, 2, 5, 6, 7, -1},
       {IValue(), IValue(), IValue(), IValue(), IValue(), IValue(), IValue(), IValue(),
        IValue(true)}},
      {"torch.nn.functional.dropout",
       "aten::dropout",
       {{"input", std::nullopt},
        {"p", IValue(0.5)},
        {"training", IValue(true)},
        {"inplace", IValue(false)}},
       {0, 1, 2},
       {IValue(), IValue(), IValue()},
       3},
      // F.pad(input, pad, mode, value): aten::pad's self is Python's input.
      {"torch.nn.functional.pad",
       "aten::pad",
       {{"input", std::nullopt},
        {"pad", std::nullopt},
        {"mode", IValue(std::string("constant"))},
        {"value", IValue()}},
       {0, 1, 2, 3},
       {IValue(), IValue(), IValue(), IValue()}},
      {"torch.nn.functional.dropout2d",
       "aten::feature_dropout",
       {{"input", std::nullopt},
        {"p", IValue(0.5)},
        {"training", IValue(true)},
        {"inplace", IValue(false)}},
       {0, 1, 2},
       {IValue(), IValue(), IValue()},
       3},
  };
  for (const FunctionalSignature& s : table) {
    if (qualname == s.qualname) return &s;
  }
  return nullptr;
}

}  // namespace d2s::interp
