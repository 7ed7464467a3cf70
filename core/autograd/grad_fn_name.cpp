// grad_fn names as PyTorch 1.13 prints them (grad_fn_name.h). The table lists the
// ops whose node is not simply the op's name in CamelCase followed by Backward0;
// the names were read from PyTorch 1.13 (`type(t.grad_fn).__name__`).
#include "core/autograd/grad_fn_name.h"

#include <cctype>
#include <string_view>

#include "core/autograd/autograd.h"

namespace d2s {

namespace {

struct NamedOp {
  std::string_view op;  // "aten::name.overload", or "aten::name" for every overload
  std::string_view node;
};

constexpr NamedOp kNodeNames[] = {
    {"aten::sum.dim_IntList", "SumBackward1"},
    {"aten::mean.dim", "MeanBackward1"},
    {"aten::max", "MaxBackward1"},
    {"aten::min", "MinBackward1"},
    {"aten::max.dim", "MaxBackward0"},
    {"aten::min.dim", "MinBackward0"},
    {"aten::max.other", "MaximumBackward0"},
    {"aten::min.other", "MinimumBackward0"},
    {"aten::pow.Tensor_Tensor", "PowBackward1"},
    {"aten::pow.Scalar", "PowBackward1"},
    {"aten::square", "PowBackward0"},
    {"aten::clamp.Tensor", "ClampBackward0"},
    {"aten::clamp", "ClampBackward1"},
    {"aten::norm", "NormBackward1"},
    {"aten::div.Tensor_mode", "DivBackward2"},
    {"aten::remainder.Tensor", "RemainderBackward1"},
    {"aten::squeeze.dim", "SqueezeBackward1"},
    {"aten::round.decimals", "RoundBackward1"},
    {"aten::prod.dim_int", "ProdBackward1"},
    {"aten::split.sizes", "SplitWithSizesBackward0"},
    {"aten::chunk", "SplitBackward0"},
    {"aten::layer_norm", "NativeLayerNormBackward0"},
    {"aten::dropout", "MulBackward0"},
    {"aten::batch_norm", "NativeBatchNormBackward0"},
    {"aten::group_norm", "NativeGroupNormBackward0"},
    {"aten::feature_dropout", "MulBackward0"},
    {"aten::numpy_T", "PermuteBackward0"},
    {"aten::reshape", "ReshapeAliasBackward0"},
    {"aten::reshape_as", "ReshapeAliasBackward0"},
    {"aten::flatten", "ReshapeAliasBackward0"},
    {"aten::view_as", "ViewBackward0"},
    {"aten::expand_as", "ExpandBackward0"},
    {"aten::contiguous", "CloneBackward0"},
    {"aten::narrow", "SliceBackward0"},
    {"aten::to", "ToCopyBackward0"},
    {"aten::type_as", "ToCopyBackward0"},
    {"aten::cpu", "ToCopyBackward0"},
    {"aten::outer", "MulBackward0"},
    {"aten::copy_", "CopyBackwards"},
    {"aten::selu", "EluBackward0"},
    {"aten::relu6", "HardtanhBackward0"},
    // In-place forms whose node PyTorch names apart from the out-of-place one.
    {"aten::elu_", "EluBackward1"},
    {"aten::selu_", "EluBackward1"},
    {"aten::leaky_relu_", "LeakyReluBackward1"},
    {"aten::relu6_", "HardtanhBackward0"},
    {"aten::dropout_", "MulBackward0"},
    {"aten::feature_dropout_", "MulBackward0"},
};

// aten::log1p → Log1PBackward0: the first letter and every letter after an
// underscore or a digit capitalised, as the generated class names are.
std::string camel_case(std::string_view base) {
  std::string out;
  bool upper = true;
  for (char c : base) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = std::isdigit(static_cast<unsigned char>(c)) != 0;
  }
  return out;
}

int64_t dim_of(const ValueList& args, size_t i) {
  if (i >= args.size() || !args[i].is_tensor() || !args[i].to_tensor().defined()) return -1;
  return args[i].to_tensor().dim();
}

bool given(const ValueList& args, size_t i) {
  return i < args.size() && args[i].is_tensor() && args[i].to_tensor().defined();
}

// Nodes that depend on the arguments: matmul and linear decompose by the operands'
// ranks (the node is the last op's), and reflected arithmetic.
std::string_view composite_node(const std::string& base, const ValueList& args) {
  const int64_t a = dim_of(args, 0), b = dim_of(args, 1);
  if (base == "aten::matmul") {
    if (a == 1 && b == 1) return "DotBackward0";
    if (a == 2 && b == 1) return "MvBackward0";
    if (a == 1 && b == 2) return "SqueezeBackward3";
    if (a == 2 && b == 2) return "MmBackward0";
    return "UnsafeViewBackward0";
  }
  // A Python number on the left (`1 - x`, `2 / x`, `2 ** x`) is PyTorch's reflected
  // op: rsub with a Scalar, a reciprocal times the number, pow of a Scalar base.
  const bool number_first = !args.empty() && !args[0].is_tensor();
  if (base == "aten::rsub") return given(args, 1) ? "RsubBackward0" : "RsubBackward1";
  if (base == "aten::sub" && number_first) return "RsubBackward1";
  if (base == "aten::div" && number_first) return "MulBackward0";
  if (base == "aten::pow" && number_first) return "PowBackward1";
  if (base == "aten::linear") {
    const bool bias = given(args, 2);
    if (a == 1) return bias ? "AddBackward0" : "SqueezeBackward3";
    if (a == 2) return bias ? "AddmmBackward0" : "MmBackward0";
    return bias ? "ViewBackward0" : "UnsafeViewBackward0";
  }
  return {};
}

}  // namespace

std::string grad_fn_name(const Tensor& t) {
  if (!t.defined() || !t.impl()->autograd || !t.impl()->autograd->grad_fn) return "";
  return grad_fn_name(*t.impl()->autograd->grad_fn);
}

std::string grad_fn_name(const GradNode& node) {
  if (!node.op) return "";
  const OpSchema& schema = node.op->schema;
  if (std::string_view c = composite_node(schema.name, node.args); !c.empty()) {
    return std::string(c);
  }
  const std::string qualified = schema.qualified_name();
  for (const NamedOp& n : kNodeNames) {
    if (n.op == qualified) return std::string(n.node);
  }
  for (const NamedOp& n : kNodeNames) {
    if (n.op == schema.name) return std::string(n.node);
  }
  // aten::add_ records as AddBackward0, as PyTorch's in-place nodes are named.
  std::string_view base = schema.name;
  if (size_t colons = base.find("::"); colons != std::string_view::npos) {
    base = base.substr(colons + 2);
  }
  if (base.size() > 1 && base.back() == '_') base.remove_suffix(1);
  return camel_case(base) + "Backward0";
}

}  // namespace d2s
