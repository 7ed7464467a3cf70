// torch.finfo and torch.iinfo: a dtype's numeric limits, as PyTorch reports them.
// d2s has one floating dtype (float32) and one integer dtype (int64), so each has one
// answer; the other dtypes give PyTorch's TypeError. The eager interpreter returns a
// TypeInfoValue; the parse route folds the attributes to constants.
#pragma once

#include <string>
#include <vector>

#include "core/tensor/ivalue.h"

namespace d2s::interp {

struct TypeInfoField {
  std::string name;
  IValue value;
  bool in_repr;  // printed by repr() (bits is an attribute only)
};

struct TypeInfo {
  std::string kind;  // "finfo" or "iinfo"
  std::vector<TypeInfoField> fields;
  std::string error;  // PyTorch's TypeError for a dtype of the other kind; empty if none
};

// The hint that goes with TypeInfo::error.
inline constexpr const char* kTypeInfoHint =
    "d2s's floating dtype is float32 and its integer dtype int64: torch.finfo takes the "
    "first, torch.iinfo the second";

// torch.finfo(d) (`floating`) or torch.iinfo(d).
TypeInfo type_info(bool floating, DType d);
// PyTorch's repr: `finfo(resolution=1e-06, min=-3.40282e+38, ..., dtype=float32)`.
std::string type_info_repr(const TypeInfo& info);

class TypeInfoValue : public Object {
 public:
  explicit TypeInfoValue(TypeInfo info) : info(std::move(info)) {}
  std::string type_name() const override { return info.kind; }
  TypeInfo info;
};

}  // namespace d2s::interp
