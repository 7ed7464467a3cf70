// Tensor operations whose Python call chooses the op by a flag: torch.nonzero(x,
// as_tuple=True) and x.nonzero(as_tuple=True) lower to aten::nonzero_numpy (the name
// torch.jit.trace records; torch.jit.script has no as_tuple at all), without it to
// aten::nonzero.
#include "convert/lowerer.h"

namespace d2s::convert {

Sugared Lowerer::call_nonzero(CallArgs& args, const SourceRange& range) {
  bool as_tuple = false;
  for (auto it = args.keywords.begin(); it != args.keywords.end(); ++it) {
    if (it->first != "as_tuple") continue;
    ir::Value* v = as_value(it->second.value, it->second.range);
    std::optional<IValue> flag = static_value(v);
    if (!flag || !(flag->is_bool() || flag->is_int())) {
      fail("nonzero(as_tuple=...) needs a bool known when the program is parsed", it->second.range,
           "write as_tuple=True or as_tuple=False; the two forms return different types");
    }
    as_tuple = flag->is_bool() ? flag->to_bool() : flag->to_int() != 0;
    args.keywords.erase(it);
    break;
  }
  return Sugared::of(emit_op(as_tuple ? "aten::nonzero_numpy" : "aten::nonzero", args.positional,
                             args.keywords, range));
}

}  // namespace d2s::convert
