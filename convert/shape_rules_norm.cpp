// The shape rules of the normalisation, gating and probability-loss ops
// (core/ops/kernels_norm.cpp, core/ops/kernels_loss_prob.cpp).
#include "convert/shape_rules_util.h"

namespace d2s::convert::shape_detail {

void add_norm_rules(RuleTable& t) {
  t.add({"aten::batch_norm", "aten::group_norm", "aten::prelu", "aten::feature_dropout"},
        [](const Args& a, const ir::Node&) { return one(tensor(DType::Float32, same_shape(a))); });
  t.add({"aten::glu"}, [](const Args& a, const ir::Node&) {  // dim halved
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    const std::optional<int64_t> dim = a.int_at(1);
    if (s && dim) {
      if (auto d = wrap(*dim, s->size()); d && (*s)[*d].is_known() && (*s)[*d].size % 2 == 0) {
        shape = *s;
        (*shape)[*d] = Dim::known((*s)[*d].size / 2);
      }
    }
    return one(tensor(DType::Float32, shape));
  });
  // kl_div broadcasts its operands: unreduced, its shape is not told here.
  t.add({"aten::kl_div"}, [](const Args& a, const ir::Node&) {
    return one(tensor(DType::Float32, loss_shape(a, 2, std::nullopt)));
  });
  t.add({"aten::binary_cross_entropy"}, [](const Args& a, const ir::Node&) {
    return one(tensor(DType::Float32, loss_shape(a, 3, same_shape(a))));
  });
}

}  // namespace d2s::convert::shape_detail
