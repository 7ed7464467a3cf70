// Shape rules of the tensor operations of core/kernels_tensorops.cpp that return a list:
// nonzero_numpy (nonzero(as_tuple=True)) and one-argument where give one 1-D long
// tensor per dim of self, each as long as self has nonzero elements (unknown here).
#include "convert/shape_rules.h"
#include "convert/shape_rules_util.h"

namespace d2s::convert::shape_detail {

std::optional<Type> list_result_rule(std::string_view k, const ir::Node& n) {
  if (k == "nonzero_numpy" || (k == "where" && n.inputs().size() == 1)) {
    return Type::list(tensor(DType::Int64, Dims{Dim{}}));
  }
  return std::nullopt;
}

}  // namespace d2s::convert::shape_detail
