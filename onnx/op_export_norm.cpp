// The ONNX mapping of the normalisation layers (core/ops/kernels_norm.cpp): batch_norm in
// eval mode as BatchNormalization (missing weight or bias as constant ones or zeros),
// prelu as PRelu (the per-channel slope reshaped to [C, 1, ...] so that it broadcasts
// over the channel dim as PyTorch's does), feature_dropout outside training as the
// identity. batch_norm in training mode fails: it reads the batch's statistics and
// writes the running ones, which an inference graph does not.
#include "core/base/error.h"
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

bool constant_flag(Emitter& e, N n, size_t i, const char* what) {
  const IValue* c = Emitter::constant(n.input(i));
  if (!c || !(c->is_bool() || c->is_int())) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
  }
  return c->is_bool() ? c->to_bool() : c->to_int() != 0;
}

void batch_norm(Emitter& e, N n) {
  if (constant_flag(e, n, 5, "the training flag")) {
    e.fail(n, "batch_norm in training mode has no ONNX inference equal",
           "export the module in eval mode: d2s export --eval");
  }
  const IValue* mean = Emitter::constant(n.input(3));
  if (!mean || !mean->is_tensor()) {
    e.fail(n, "batch_norm's running statistics must be constant for ONNX export");
  }
  const int64_t channels = mean->to_tensor().numel();
  auto or_fill = [&](size_t i, double fill) {
    if (!Emitter::is_none(n.input(i))) return e.name_as(n.input(i), DType::Float32);
    return e.const_tensor(Tensor::full({channels}, fill));
  };
  const IValue* eps = Emitter::constant(n.input(7));
  if (!eps || !eps->is_number()) e.fail(n, "batch_norm's eps must be constant for ONNX export");
  const std::vector<std::string> ins = {e.name_as(n.input(0), DType::Float32), or_fill(1, 1.0),
                                        or_fill(2, 0.0), e.name_as(n.input(3), DType::Float32),
                                        e.name_as(n.input(4), DType::Float32)};
  e.bind(n.output(), e.add1("BatchNormalization", ins, [&](onnx::NodeProto* p) {
    auto* a = p->add_attribute();
    a->set_name("epsilon");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(static_cast<float>(eps->to_double()));
  }));
}

void prelu(Emitter& e, N n) {
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank)) {
    e.fail(n, "prelu exports for an input of known rank only", "give d2s export --inputs");
  }
  std::string slope = e.name_as(n.input(1), DType::Float32);
  if (rank >= 2) {
    // [C] → [C, 1, ..., 1]: ONNX broadcasts the slope from the right.
    std::vector<int64_t> shape(static_cast<size_t>(rank - 1), 1);
    shape[0] = -1;
    slope = e.add1("Reshape", {slope, e.const_ints(shape)});
  }
  e.bind(n.output(), e.add1("PRelu", {e.name_as(n.input(0), DType::Float32), slope}));
}

void feature_dropout(Emitter& e, N n) {
  const IValue* p = Emitter::constant(n.input(1));
  if (constant_flag(e, n, 2, "the training flag") &&
      !(p && p->is_number() && p->to_double() == 0)) {
    e.fail(n, "dropout in training mode is random; the ONNX file would not match",
           "export the module in eval mode: d2s export --eval");
  }
  e.bind(n.output(), e.name(n.input(0)));
}

}  // namespace

void add_norm_exports(std::map<std::string, ExportFn>& m) {
  m["aten::batch_norm"] = batch_norm;
  m["aten::prelu"] = prelu;
  m["aten::feature_dropout"] = feature_dropout;
}

}  // namespace d2s::onnx_io
