#include "trace/py_typeinfo.h"

#include <cstdio>
#include <limits>

namespace d2s::interp {

TypeInfo type_info(bool floating, DType d) {
  TypeInfo info;
  info.kind = floating ? "finfo" : "iinfo";
  const std::string torch_name = std::string("torch.") + info.kind;
  if (floating) {
    if (d != DType::Float32) {
      info.error = "TypeError: " + torch_name +
                   "() requires a floating point input type. Use torch.iinfo to handle '" +
                   torch_name + "'";
      return info;
    }
    using L = std::numeric_limits<float>;
    info.fields = {{"resolution", IValue(1e-06), true},
                   {"min", IValue(double(L::lowest())), true},
                   {"max", IValue(double(L::max())), true},
                   {"eps", IValue(double(L::epsilon())), true},
                   {"smallest_normal", IValue(double(L::min())), true},
                   {"tiny", IValue(double(L::min())), true},
                   {"dtype", IValue(std::string("float32")), true},
                   {"bits", IValue(int64_t{32}), false}};
    return info;
  }
  if (d == DType::Bool) {
    info.error = "TypeError: torch.bool is not supported by torch.iinfo";
    return info;
  }
  if (d != DType::Int64) {
    info.error = "TypeError: " + torch_name +
                 "() requires an integer input type. Use torch.finfo to handle '" + torch_name +
                 "'";
    return info;
  }
  using L = std::numeric_limits<int64_t>;
  info.fields = {{"min", IValue(L::min()), true},
                 {"max", IValue(L::max()), true},
                 {"dtype", IValue(std::string("int64")), true},
                 {"bits", IValue(int64_t{64}), false}};
  return info;
}

std::string type_info_repr(const TypeInfo& info) {
  std::string out = info.kind + "(";
  bool first = true;
  for (const TypeInfoField& f : info.fields) {
    if (!f.in_repr) continue;
    std::string text;
    if (f.value.is_string()) {
      text = f.value.to_string();
    } else {
      // PyTorch formats the limits with C's %g (six significant digits), ints too.
      char buf[32];
      const double x = f.value.is_int() ? double(f.value.to_int()) : f.value.to_double();
      std::snprintf(buf, sizeof buf, "%g", x);
      text = buf;
    }
    out += (first ? "" : ", ") + f.name + "=" + text;
    first = false;
  }
  return out + ")";
}

}  // namespace d2s::interp
