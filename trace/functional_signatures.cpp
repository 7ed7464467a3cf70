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
