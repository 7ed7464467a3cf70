// How Python spellings reach ops: the tables behind op_for_function,
// op_for_method and op_for_operator (see op_registry.h). Each table lists
// (spelling, op) pairs; a spelling missing here is not supported, and the
// interpreter reports it as such.
#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "core/ops/op_registry.h"

namespace d2s {

namespace {

using Table = std::unordered_map<std::string, std::string>;

// Names that are spelled the same in torch.X, as a Tensor method and as the op.
constexpr const char* kCommon[] = {"add",
                                   "sub",
                                   "mul",
                                   "div",
                                   "neg",
                                   "pow",
                                   "exp",
                                   "exp2",
                                   "expm1",
                                   "log",
                                   "log2",
                                   "log10",
                                   "log1p",
                                   "sqrt",
                                   "rsqrt",
                                   "abs",
                                   "sin",
                                   "cos",
                                   "tan",
                                   "asin",
                                   "acos",
                                   "atan",
                                   "sinh",
                                   "cosh",
                                   "tanh",
                                   "erf",
                                   "sigmoid",
                                   "relu",
                                   "square",
                                   "clamp",
                                   "clamp_min",
                                   "clamp_max",
                                   "maximum",
                                   "minimum",
                                   "floor",
                                   "ceil",
                                   "round",
                                   "trunc",
                                   "floor_divide",
                                   "remainder",
                                   "reciprocal",
                                   "sign",
                                   "lt",
                                   "gt",
                                   "le",
                                   "ge",
                                   "eq",
                                   "ne",
                                   "logical_not",
                                   "logical_and",
                                   "logical_or",
                                   "logical_xor",
                                   "bitwise_not",
                                   "bitwise_and",
                                   "bitwise_or",
                                   "bitwise_xor",
                                   "isnan",
                                   "isinf",
                                   "isfinite",
                                   "sum",
                                   "mean",
                                   "max",
                                   "min",
                                   "amax",
                                   "amin",
                                   "argmax",
                                   "argmin",
                                   "norm",
                                   "prod",
                                   "all",
                                   "any",
                                   "std",
                                   "var",
                                   "logsumexp",
                                   "mm",
                                   "matmul",
                                   "bmm",
                                   "mv",
                                   "dot",
                                   "outer",
                                   "t",
                                   "transpose",
                                   "permute",
                                   "reshape",
                                   "flatten",
                                   "squeeze",
                                   "unsqueeze",
                                   "chunk",
                                   "split",
                                   "unbind",
                                   "numel",
                                   "index_select",
                                   "tril",
                                   "triu",
                                   "masked_fill",
                                   "detach",
                                   "clone",
                                   "softmax",
                                   "log_softmax",
                                   "addmm",
                                   "is_floating_point"};

// torch.X only.
constexpr const char* kTorchOnly[] = {
    "zeros",     "ones",      "full",       "empty",     "rand",       "randn",
    "randint",   "arange",    "linspace",   "eye",       "tensor",     "zeros_like",
    "ones_like", "full_like", "empty_like", "rand_like", "randn_like", "where",
    "cat",       "stack",     "layer_norm", "dropout",   "rsub"};

// torch.X only: the ops TorchScript records for nn.Embedding and the recurrent layers,
// whose torch. spellings d2s code writes (PyTorch has them all).
constexpr const char* kTorchRecurrent[] = {"embedding", "lstm",          "gru",
                                           "rnn_tanh",  "rnn_relu",      "lstm_cell",
                                           "gru_cell",  "rnn_tanh_cell", "rnn_relu_cell"};

// Tensor methods only.
// (x.float(), x.long(), x.bool() have no entry: the interpreter writes them as
// aten::to with a dtype, as TorchScript does.)
constexpr const char* kMethodOnly[] = {
    "view",      "view_as", "reshape_as", "size",   "dim",     "contiguous", "expand",
    "expand_as", "repeat",  "select",     "to",     "type_as", "item",       "cpu",
    "add_",      "sub_",    "mul_",       "div_",   "copy_",   "relu_",      "clamp_",
    "fill_",     "zero_",   "uniform_",   "normal_"};

// Issue 17's tensor operations: torch.X and Tensor methods alike, and methods only (in-place
// writes, creation from self).
constexpr const char* kCommonTensorOps[] = {
    "index_put",   "topk",      "sort",     "argsort",
    "cumsum",      "cumprod",   "gather",   "scatter",
    "scatter_add", "flip",      "roll",     "baddbmm",
    "fmod",        "nonzero",   "diagonal", "diagonal_scatter",
    "diag_embed",  "as_strided"};
constexpr const char* kMethodOnlyTensorOps[] = {
    "index_put_", "scatter_", "scatter_add_", "new_zeros", "new_ones", "new_full", "new_empty"};

// The in-place activations (kernels_inplace.cpp): Tensor methods, torch.X and F.X as
// PyTorch 1.13 spells each.
constexpr const char* kInplaceMethods[] = {"sigmoid_", "tanh_", "clamp_min_", "clamp_max_"};
constexpr const char* kTorchInplace[] = {"relu_",      "selu_",    "sigmoid_",
                                         "tanh_",      "clamp_",   "clamp_min_",
                                         "clamp_max_", "dropout_", "feature_dropout_"};
constexpr const char* kFunctionalInplace[] = {"relu_", "leaky_relu_", "elu_", "hardtanh_", "selu_"};

// Views and layouts (core/autograd/views.h): torch.narrow and x.narrow; the layout queries are
// methods only.
constexpr const char* kViewMethodsOnly[] = {"is_contiguous", "stride"};

constexpr const char* kFunctional[] = {"relu",
                                       "gelu",
                                       "silu",
                                       "leaky_relu",
                                       "softplus",
                                       "softmax",
                                       "log_softmax",
                                       "linear",
                                       "layer_norm",
                                       "dropout",
                                       "sigmoid",
                                       "tanh",
                                       "mse_loss",
                                       "l1_loss",
                                       "smooth_l1_loss",
                                       "nll_loss",
                                       "binary_cross_entropy_with_logits",
                                       "ctc_loss",
                                       "conv1d",
                                       "conv2d",
                                       "conv_transpose1d",
                                       "conv_transpose2d",
                                       "pixel_shuffle",
                                       "pixel_unshuffle",
                                       "max_pool1d",
                                       "max_pool2d",
                                       "avg_pool1d",
                                       "avg_pool2d",
                                       "adaptive_avg_pool1d",
                                       "adaptive_avg_pool2d",
                                       "hardtanh",
                                       "relu6",
                                       "elu",
                                       "selu",
                                       "group_norm",
                                       "prelu",
                                       "glu",
                                       "kl_div",
                                       "binary_cross_entropy"};

constexpr const char* kMath[] = {"sqrt", "exp",   "expm1", "log",     "log2",  "log10", "log1p",
                                 "sin",  "cos",   "tan",   "asin",    "acos",  "atan",  "atan2",
                                 "sinh", "cosh",  "tanh",  "erf",     "floor", "ceil",  "trunc",
                                 "fabs", "isnan", "isinf", "isfinite"};

const Table& functions() {
  static const Table table = [] {
    Table t;
    for (const char* n : kCommon) t[std::string("torch.") + n] = std::string("aten::") + n;
    for (const char* n : kTorchOnly) t[std::string("torch.") + n] = std::string("aten::") + n;
    for (const char* n : kTorchRecurrent) t[std::string("torch.") + n] = std::string("aten::") + n;
    for (const char* n : kCommonTensorOps) {
      t[std::string("torch.") + n] = std::string("aten::") + n;
    }
    t["torch.narrow"] = "aten::narrow";
    for (const char* n : kFunctional) {
      t[std::string("torch.nn.functional.") + n] = std::string("aten::") + n;
    }
    for (const char* n : kMath) t[std::string("math.") + n] = std::string("aten::") + n;
    for (const char* n : kTorchInplace) t[std::string("torch.") + n] = std::string("aten::") + n;
    for (const char* n : kFunctionalInplace) {
      t[std::string("torch.nn.functional.") + n] = std::string("aten::") + n;
    }
    t["torch.nn.functional.cross_entropy"] = "aten::cross_entropy_loss";
    t["torch.einsum"] = "aten::einsum";
    t["torch.conv1d"] = "aten::conv1d";
    t["torch.conv2d"] = "aten::conv2d";
    t["torch.conv_transpose1d"] = "aten::conv_transpose1d";
    t["torch.conv_transpose2d"] = "aten::conv_transpose2d";
    t["torch.pixel_shuffle"] = "aten::pixel_shuffle";
    t["torch.pixel_unshuffle"] = "aten::pixel_unshuffle";
    t["torch.nn.functional.pad"] = "aten::pad";
    t["torch.batch_norm"] = "aten::batch_norm";
    // Bound by their Python signatures (trace/functional_signatures.h).
    t["torch.nn.functional.batch_norm"] = "aten::batch_norm";
    t["torch.nn.functional.dropout2d"] = "aten::feature_dropout";
    t["torch.group_norm"] = "aten::group_norm";
    t["torch.prelu"] = "aten::prelu";
    t["torch.feature_dropout"] = "aten::feature_dropout";
    t["torch.clip"] = "aten::clamp";
    t["torch.spmm"] = "aten::mm";  // d2s tensors are dense: spmm of dense tensors is mm
    t["torch.concat"] = "aten::cat";
    t["torch.concatenate"] = "aten::cat";
    t["torch.absolute"] = "aten::abs";
    t["torch.negative"] = "aten::neg";
    t["torch.multiply"] = "aten::mul";
    t["torch.subtract"] = "aten::sub";
    t["torch.divide"] = "aten::div";
    t["torch.true_divide"] = "aten::div";
    t["torch.greater"] = "aten::gt";
    t["torch.less"] = "aten::lt";
    t["torch.greater_equal"] = "aten::ge";
    t["torch.less_equal"] = "aten::le";
    t["torch.not_equal"] = "aten::ne";
    t["math.pow"] = "aten::float_power";  // always a float, unlike **
    // Python builtins, by their bare names.
    t["abs"] = "aten::abs";
    t["round"] = "aten::round";
    t["min"] = "prim::min";
    t["max"] = "prim::max";
    t["len"] = "aten::len";
    t["int"] = "aten::Int";
    t["float"] = "aten::Float";
    t["bool"] = "aten::Bool";
    t["str"] = "aten::str";
    return t;
  }();
  return table;
}

const Table& methods() {
  static const Table table = [] {
    Table t;
    for (const char* n : kCommon) t[n] = std::string("aten::") + n;
    for (const char* n : kMethodOnly) t[n] = std::string("aten::") + n;
    for (const char* n : kCommonTensorOps) t[n] = std::string("aten::") + n;
    for (const char* n : kViewMethodsOnly) t[n] = std::string("aten::") + n;
    t["narrow"] = "aten::narrow";
    for (const char* n : kMethodOnlyTensorOps) t[n] = std::string("aten::") + n;
    for (const char* n : kInplaceMethods) t[n] = std::string("aten::") + n;
    t["clip"] = "aten::clamp";
    t["absolute"] = "aten::abs";
    t["negative"] = "aten::neg";
    t["multiply"] = "aten::mul";
    t["subtract"] = "aten::sub";
    t["divide"] = "aten::div";
    t["true_divide"] = "aten::div";
    return t;
  }();
  return table;
}

const Table& operators() {
  static const Table table = {
      {"__add__", "aten::add"},
      {"__sub__", "aten::sub"},
      {"__rsub__", "aten::rsub"},
      {"__mul__", "aten::mul"},
      {"__truediv__", "aten::div"},
      {"__floordiv__", "aten::floor_divide"},
      {"__mod__", "aten::remainder"},
      {"__pow__", "aten::pow"},
      {"__matmul__", "aten::matmul"},
      {"__neg__", "aten::neg"},
      {"__abs__", "aten::abs"},
      {"__lt__", "aten::lt"},
      {"__gt__", "aten::gt"},
      {"__le__", "aten::le"},
      {"__ge__", "aten::ge"},
      {"__eq__", "aten::eq"},
      {"__ne__", "aten::ne"},
      {"__and__", "aten::__and__"},
      {"__or__", "aten::__or__"},
      {"__xor__", "aten::__xor__"},
      {"__invert__", "aten::bitwise_not"},
      {"__not__", "aten::__not__"},
  };
  return table;
}

std::optional<std::string> lookup(const Table& table, std::string_view name) {
  auto it = table.find(std::string(name));
  if (it == table.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::optional<std::string> op_for_function(std::string_view qualified_python_name) {
  return lookup(functions(), qualified_python_name);
}

std::optional<std::string> op_for_method(std::string_view method_name) {
  return lookup(methods(), method_name);
}

std::optional<std::string> op_for_operator(std::string_view dunder_name) {
  return lookup(operators(), dunder_name);
}

std::vector<PythonSpelling> python_spellings() {
  std::vector<PythonSpelling> out;
  constexpr std::string_view kFunctionalPrefix = "torch.nn.functional.";
  for (const auto& [name, op] : functions()) {
    std::string shown = name;
    if (shown.rfind(kFunctionalPrefix, 0) == 0) {
      shown = "F." + shown.substr(kFunctionalPrefix.size());
    }
    out.push_back({std::move(shown), op});
  }
  for (const auto& [name, op] : methods()) out.push_back({"Tensor." + name, op});
  for (const auto& [name, op] : operators()) out.push_back({"Tensor." + name, op});
  std::sort(out.begin(), out.end(), [](const PythonSpelling& a, const PythonSpelling& b) {
    return std::tie(a.op, a.spelling) < std::tie(b.op, b.spelling);
  });
  return out;
}

}  // namespace d2s
