// The shape rules of the normalisation, gating and probability-loss ops
// (core/ops/kernels_norm.cpp, core/ops/kernels_loss_prob.cpp).
#include "convert/shape_rules_util.h"

namespace d2s::convert::shape_detail {

std::optional<std::vector<Type>> norm_rule(std::string_view k, const Args& a) {
  const Dims* s = a.shape(0);
  const std::optional<Dims> same = s ? std::optional<Dims>(*s) : std::nullopt;
  if (in(k, {"batch_norm", "group_norm", "prelu", "feature_dropout"})) {
    return std::vector<Type>{tensor(DType::Float32, same)};
  }
  if (k == "glu") {  // dim halved
    std::optional<Dims> shape;
    const std::optional<int64_t> dim = a.int_at(1);
    if (s && dim) {
      if (auto d = wrap(*dim, s->size()); d && (*s)[*d].is_known() && (*s)[*d].size % 2 == 0) {
        shape = *s;
        (*shape)[*d] = Dim::known((*s)[*d].size / 2);
      }
    }
    return std::vector<Type>{tensor(DType::Float32, shape)};
  }
  if (in(k, {"kl_div", "binary_cross_entropy"})) {  // 0-d unless reduction='none'
    const std::optional<IValue> r = a.value(k == "kl_div" ? 2 : 3);
    std::optional<Dims> shape = Dims{};
    if (!r || !(r->is_string() || r->is_int())) {
      shape.reset();
    } else if ((r->is_string() && r->to_string() == "none") || (r->is_int() && r->to_int() == 0)) {
      shape = k == "kl_div" ? std::nullopt : same;  // kl_div broadcasts its operands
    }
    return std::vector<Type>{tensor(DType::Float32, shape)};
  }
  return std::nullopt;
}

}  // namespace d2s::convert::shape_detail
