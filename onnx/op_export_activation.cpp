// The ONNX mappings of activations and layer-level ops that are no single ONNX op or
// take attributes from constant arguments: gelu (both approximations), silu,
// layer_norm, dropout (eval only), leaky_relu, softplus (PyTorch's threshold).
#include <algorithm>
#include <cmath>
#include <map>

#include "core/base/error.h"
#include "onnx/export_emitter.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

void gelu(Emitter& e, N n) {
  std::string x = e.name_as(n.input(0), DType::Float32);
  const IValue* approx = n.inputs().size() > 1 ? Emitter::constant(n.input(1)) : nullptr;
  auto c = [&](double v) { return e.const_scalar(v, DType::Float32); };
  std::string inner;
  if (approx && approx->is_string() && approx->to_string() == "tanh") {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    std::string x3 = e.add1("Mul", {e.add1("Mul", {x, x}), x});
    std::string s = e.add1("Add", {x, e.add1("Mul", {x3, c(0.044715)})});
    inner = e.add1("Tanh", {e.add1("Mul", {s, c(std::sqrt(2.0 / M_PI))})});
  } else {
    inner = e.add1("Erf", {e.add1("Mul", {x, c(M_SQRT1_2)})});
  }
  std::string y = e.add1("Mul", {e.add1("Mul", {x, c(0.5)}), e.add1("Add", {inner, c(1.0)})});
  e.bind(n.output(), y);
}

void silu(Emitter& e, N n) {
  std::string x = e.name_as(n.input(0), DType::Float32);
  e.bind(n.output(), e.add1("Mul", {x, e.add1("Sigmoid", {x})}));
}

void layer_norm(Emitter& e, N n) {
  if (e.opset() < 17) {
    e.fail(n, "layer_norm needs opset 17 (LayerNormalization)", "drop --opset or give 17");
  }
  // Only the length of normalized_shape matters to ONNX (axis = -length); the
  // sizes are the input's own last dims.
  std::vector<int64_t> shape;
  if (!Emitter::constant_ints(n.input(1), &shape)) {
    shape.assign(e.list_items(n.input(1), n).size(), -1);
  }
  double eps = n.inputs().size() > 4 ? need_number(e, n, 4, "eps") : 1e-5;
  std::string x = e.name(n.input(0));
  std::string scale, bias;
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    scale = e.name(n.input(2));
  } else {
    if (std::find(shape.begin(), shape.end(), -1) != shape.end()) {
      e.fail(n, "layer_norm without weight needs a constant normalized_shape");
    }
    scale = e.const_tensor(Tensor::full(shape, 1.0));
  }
  if (n.inputs().size() > 3 && !Emitter::is_none(n.input(3))) bias = e.name(n.input(3));
  std::vector<std::string> ins = {x, scale};
  if (!bias.empty()) ins.push_back(bias);
  e.bind(n.output(), e.add1("LayerNormalization", ins, [&](onnx::NodeProto* p) {
    attr_int(p, "axis", -static_cast<int64_t>(shape.size()));
    attr_float(p, "epsilon", static_cast<float>(eps));
  }));
}

void dropout(Emitter& e, N n) {
  int64_t training = 0;
  double p = n.inputs().size() > 1 ? need_number(e, n, 1, "p") : 0.5;
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2)) &&
      !Emitter::constant_int(n.input(2), &training)) {
    e.fail(n, "dropout's training flag must be a constant");
  }
  if (training && p > 0) {
    e.fail(n, "dropout in training mode is random; the ONNX file would not match",
           "export the module in eval mode: d2s export --eval");
  }
  e.bind(n.output(), e.name(n.input(0)));
}

void leaky_relu(Emitter& e, N n) {
  double slope = n.inputs().size() > 1 ? need_number(e, n, 1, "negative_slope") : 0.01;
  e.bind(n.output(), e.add1("LeakyRelu", {e.name(n.input(0))}, [&](onnx::NodeProto* p) {
    attr_float(p, "alpha", static_cast<float>(slope));
  }));
}

void softplus(Emitter& e, N n) {
  double beta = n.inputs().size() > 1 ? need_number(e, n, 1, "beta") : 1;
  double threshold = n.inputs().size() > 2 ? need_number(e, n, 2, "threshold") : 20;
  std::string x = e.name(n.input(0));
  auto c = [&](double v) { return e.const_scalar(v, DType::Float32); };
  std::string bx = beta == 1 ? x : e.add1("Mul", {x, c(beta)});
  std::string sp = e.add1("Softplus", {bx});
  if (beta != 1) sp = e.add1("Div", {sp, c(beta)});
  // Above the threshold PyTorch returns x itself.
  e.bind(n.output(), e.add1("Where", {e.add1("Greater", {bx, c(threshold)}), x, sp}));
}

}  // namespace

void add_activation_exports(std::map<std::string, ExportFn>& m) {
  m["aten::gelu"] = gelu;
  m["aten::silu"] = silu;
  m["aten::layer_norm"] = layer_norm;
  m["aten::dropout"] = dropout;
  m["aten::leaky_relu"] = leaky_relu;
  m["aten::softplus"] = softplus;
}

}  // namespace d2s::onnx_io
