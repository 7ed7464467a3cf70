// The ONNX mapping of aten::group_norm: explicit mean and variance over each group
// (ONNX 17's GroupNormalization is opset 18, past what d2s writes; InstanceNormalization
// would need a per-group scale and a second affine step anyway).
#include "core/base/error.h"
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

// group_norm(input [N, C, *], num_groups, weight?, bias?, eps): the input Reshaped to
// [N, groups, -1], normalised by its mean and (biased) variance over the last axis,
// Reshaped back, then scaled and shifted per channel (weight and bias as [C, 1, ...]).
void group_norm(Emitter& e, N n) {
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank) || rank < 2) {
    e.fail(n, "group_norm's input must have a known rank of 2 or more for ONNX export");
  }
  int64_t groups = 0;
  if (!Emitter::constant_int(n.input(1), &groups)) {
    e.fail(n, "num_groups of group_norm must be constant for ONNX export");
  }
  const double eps = n.inputs().size() > 4 ? need_number(e, n, 4, "eps") : 1e-5;
  const std::string x = e.name_as(n.input(0), DType::Float32);
  const std::string g = e.add1("Reshape", {x, e.const_ints({0, groups, -1})});
  auto mean = [&e](const std::string& v) {
    return e.add1("ReduceMean", {v}, [](onnx::NodeProto* p) {
      attr_ints(p, "axes", {2});
      attr_int(p, "keepdims", 1);
    });
  };
  const std::string centred = e.add1("Sub", {g, mean(g)});
  const std::string var = mean(e.add1("Mul", {centred, centred}));
  const std::string normed = e.add1(
      "Div",
      {centred, e.add1("Sqrt", {e.add1("Add", {var, e.const_scalar(eps, DType::Float32)})})});
  std::string y = e.add1("Reshape", {normed, e.add1("Shape", {x})});
  std::vector<int64_t> axes;
  for (int64_t a = 1; a < rank - 1; ++a) axes.push_back(a);
  auto per_channel = [&](size_t i) {
    const std::string v = e.name_as(n.input(i), DType::Float32);
    return axes.empty() ? v : e.add1("Unsqueeze", {v, e.const_ints(axes)});
  };
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    y = e.add1("Mul", {y, per_channel(2)});
  }
  if (n.inputs().size() > 3 && !Emitter::is_none(n.input(3))) {
    y = e.add1("Add", {y, per_channel(3)});
  }
  e.bind(n.output(), y);
}

}  // namespace

void add_group_norm_exports(std::map<std::string, ExportFn>& m) {
  m["aten::group_norm"] = group_norm;
}

}  // namespace d2s::onnx_io
