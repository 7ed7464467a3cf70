// The ONNX mapping of every d2s op that export supports (export_emitter.h): what
// ONNX nodes each aten/prim kind becomes. Ints, floats and bools are 0-d tensors and
// int lists 1-D int64 tensors in the file, so scalar arithmetic maps to the same
// ONNX ops as tensor arithmetic. docs/onnx.md has the table.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/base/error.h"
#include "onnx/export_emitter.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

// Convolution and pooling (op_export_conv.cpp).
void add_conv_pool_exports(std::map<std::string, ExportFn>& m);
// gelu, silu, layer_norm, dropout, leaky_relu, softplus (op_export_activation.cpp).
void add_activation_exports(std::map<std::string, ExportFn>& m);
// batch_norm (eval), prelu, feature_dropout (op_export_norm.cpp).
void add_norm_exports(std::map<std::string, ExportFn>& m);
// aten::embedding (op_export_rnn.cpp).
void add_rnn_exports(std::map<std::string, ExportFn>& m);
// Ops along one dim and nonzero (op_export_index.cpp).
void add_index_exports(std::map<std::string, ExportFn>& m);
// conv_transpose, upsample_*, pixel_(un)shuffle, pad (op_export_resize.cpp).
void add_resize_exports(std::map<std::string, ExportFn>& m);

namespace {

using Fn = ExportFn;
using N = const ir::Node&;

// The dtype two operands meet in (PyTorch's promotion over d2s's three dtypes).
DType promote(DType a, DType b) {
  if (a == DType::Float32 || b == DType::Float32) return DType::Float32;
  if (a == DType::Int64 || b == DType::Int64) return DType::Int64;
  return DType::Bool;
}

int64_t need_int(Emitter& e, N n, size_t i, const char* what) {
  int64_t v = 0;
  if (!Emitter::constant_int(n.input(i), &v)) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be a constant for ONNX export");
  }
  return v;
}

int64_t need_rank(Emitter& e, N n, size_t i) {
  int64_t r = 0;
  if (!Emitter::rank_of(n.input(i), &r)) {
    e.fail(n, "the rank of " + n.kind() + "'s input is not known",
           "give d2s export --inputs so that the input shapes are known");
  }
  return r;
}

std::vector<int64_t> need_ints(Emitter& e, N n, size_t i, const char* what) {
  std::vector<int64_t> v;
  if (!Emitter::constant_ints(n.input(i), &v)) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
  }
  return v;
}

// An output's dtype in the file: its declared dtype, else `fallback`.
DType out_dtype(Emitter& e, N n, DType fallback) {
  const ir::Type& t = n.output()->type();
  if (t.kind == ir::TypeKind::Any || (t.is_tensor() && !t.dtype)) return fallback;
  return e.dtype(n.output());
}

Fn unary(const char* op) {
  return [op](Emitter& e, N n) {
    DType d = e.dtype(n.input(0));
    DType want = (std::string(op) == "Abs" || std::string(op) == "Neg" ||
                  std::string(op) == "Sign" || std::string(op) == "Relu")
                     ? d
                     : DType::Float32;
    e.bind(n.output(), e.add1(op, {e.name_as(n.input(0), want)}));
  };
}

// add/sub with alpha; mul; div: both operands in the result's dtype.
Fn arith(const char* op) {
  return [op](Emitter& e, N n) {
    DType d = promote(e.dtype(n.input(0)), e.dtype(n.input(1)));
    if (std::string(op) == "Div") d = DType::Float32;
    d = out_dtype(e, n, d);
    std::string a = e.name_as(n.input(0), d);
    std::string b = e.name_as(n.input(1), d);
    if (n.inputs().size() > 2 && (std::string(op) == "Add" || std::string(op) == "Sub")) {
      double alpha = need_number(e, n, 2, "alpha");
      if (alpha != 1) b = e.add1("Mul", {b, e.const_scalar(alpha, d)});
    }
    e.bind(n.output(), e.add1(op, {a, b}));
  };
}

Fn rsub() {
  return [](Emitter& e, N n) {
    DType d = out_dtype(e, n, promote(e.dtype(n.input(0)), e.dtype(n.input(1))));
    std::string a = e.name_as(n.input(0), d);
    std::string b = e.name_as(n.input(1), d);
    if (n.inputs().size() > 2) {
      double alpha = need_number(e, n, 2, "alpha");
      if (alpha != 1) a = e.add1("Mul", {a, e.const_scalar(alpha, d)});
    }
    e.bind(n.output(), e.add1("Sub", {b, a}));
  };
}

Fn compare(const char* op, bool negate = false) {
  return [op, negate](Emitter& e, N n) {
    DType d = promote(e.dtype(n.input(0)), e.dtype(n.input(1)));
    std::string r = e.add1(op, {e.name_as(n.input(0), d), e.name_as(n.input(1), d)});
    if (negate) r = e.add1("Not", {r});
    e.bind(n.output(), r);
  };
}

Fn logic(const char* op) {
  return [op](Emitter& e, N n) {
    e.bind(n.output(),
           e.add1(op, {e.name_as(n.input(0), DType::Bool), e.name_as(n.input(1), DType::Bool)}));
  };
}

Fn identity() {
  return [](Emitter& e, N n) { e.bind(n.output(), e.name(n.input(0))); };
}

// ReduceMean/Max/Min/Prod take axes as an attribute below opset 18, ReduceSum as an
// input from opset 13.
std::string reduce(Emitter& e, const std::string& op, const std::string& x,
                   const std::vector<int64_t>* axes, bool keepdim) {
  if (op == "ReduceSum") {
    std::vector<std::string> ins = {x};
    if (axes) ins.push_back(e.const_ints(*axes));
    return e.add1(op, ins, [&](onnx::NodeProto* p) { attr_int(p, "keepdims", keepdim); });
  }
  return e.add1(op, {x}, [&](onnx::NodeProto* p) {
    if (axes) attr_ints(p, "axes", *axes);
    attr_int(p, "keepdims", keepdim);
  });
}

// aten::sum / mean / amax / prod ...: (self) or (self, dim(s), keepdim).
Fn reduction(const char* op, bool float_only) {
  return [op, float_only](Emitter& e, N n) {
    DType d = float_only ? DType::Float32 : e.dtype(n.input(0));
    if (std::string(op) == "ReduceSum" && d == DType::Bool) d = DType::Int64;
    std::string x = e.name_as(n.input(0), d);
    if (n.inputs().size() == 1 || Emitter::is_none(n.input(1)) ||
        (n.inputs().size() >= 2 && n.input(1)->type().kind == ir::TypeKind::Int &&
         n.overload().empty())) {
      e.bind(n.output(), reduce(e, op, x, nullptr, false));
      return;
    }
    std::vector<int64_t> axes = need_ints(e, n, 1, "dim");
    bool keepdim = n.inputs().size() > 2 && need_int(e, n, 2, "keepdim");
    if (axes.empty()) {
      e.bind(n.output(), reduce(e, op, x, nullptr, keepdim));
      return;
    }
    e.bind(n.output(), reduce(e, op, x, &axes, keepdim));
  };
}

// aten::max / min: all elements, (self, dim, keepdim) -> (values, indices), or
// elementwise with another tensor.
Fn extreme(bool largest) {
  return [largest](Emitter& e, N n) {
    const char* reduce_op = largest ? "ReduceMax" : "ReduceMin";
    if (n.inputs().size() == 1) {
      e.bind(n.output(), reduce(e, reduce_op, e.name(n.input(0)), nullptr, false));
      return;
    }
    if (n.overload() == "other" || n.input(1)->type().is_tensor()) {
      DType d = promote(e.dtype(n.input(0)), e.dtype(n.input(1)));
      e.bind(n.output(),
             e.add1(largest ? "Max" : "Min", {e.name_as(n.input(0), d), e.name_as(n.input(1), d)}));
      return;
    }
    int64_t dim = need_int(e, n, 1, "dim");
    bool keepdim = n.inputs().size() > 2 && need_int(e, n, 2, "keepdim");
    std::vector<int64_t> axes = {dim};
    std::string x = e.name(n.input(0));
    e.bind(n.output(0), reduce(e, reduce_op, x, &axes, keepdim));
    if (n.outputs().size() > 1) {
      e.bind(n.output(1), e.add1(largest ? "ArgMax" : "ArgMin", {x}, [&](onnx::NodeProto* p) {
        attr_int(p, "axis", dim);
        attr_int(p, "keepdims", keepdim);
        attr_int(p, "select_last_index", 0);
      }));
    }
  };
}

void linear(Emitter& e, N n) {
  std::string w = e.add1("Transpose", {e.name(n.input(1))}, [](onnx::NodeProto* p) {
    attr_ints(p, "perm", {1, 0});
  });
  std::string y = e.add1("MatMul", {e.name(n.input(0)), w});
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    y = e.add1("Add", {y, e.name(n.input(2))});
  }
  e.bind(n.output(), y);
}

void addmm(Emitter& e, N n) {
  double beta = n.inputs().size() > 3 ? need_number(e, n, 3, "beta") : 1;
  double alpha = n.inputs().size() > 4 ? need_number(e, n, 4, "alpha") : 1;
  std::string p = e.add1("MatMul", {e.name(n.input(1)), e.name(n.input(2))});
  if (alpha != 1) p = e.add1("Mul", {p, e.const_scalar(alpha, DType::Float32)});
  std::string s = e.name(n.input(0));
  if (beta != 1) s = e.add1("Mul", {s, e.const_scalar(beta, DType::Float32)});
  e.bind(n.output(), e.add1("Add", {s, p}));
}

void matmul(Emitter& e, N n) {
  e.bind(n.output(), e.add1("MatMul", {e.name(n.input(0)), e.name(n.input(1))}));
}

// The axis of a dim argument, made non-negative when the rank is known.
int64_t axis_arg(Emitter& e, N n, size_t i) {
  return need_int(e, n, i, "dim");
}

void softmax_like(Emitter& e, N n, const char* op) {
  int64_t dim = Emitter::is_none(n.input(1)) ? -1 : axis_arg(e, n, 1);
  e.bind(n.output(), e.add1(op, {e.name_as(n.input(0), DType::Float32)},
                            [&](onnx::NodeProto* p) { attr_int(p, "axis", dim); }));
}

void reshape(Emitter& e, N n) {
  e.bind(n.output(), e.add1("Reshape", {e.name(n.input(0)), e.int_list(n.input(1), n)}));
}

void flatten(Emitter& e, N n) {
  int64_t start = n.inputs().size() > 1 ? need_int(e, n, 1, "start_dim") : 0;
  int64_t end = n.inputs().size() > 2 ? need_int(e, n, 2, "end_dim") : -1;
  int64_t rank = need_rank(e, n, 0);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  // The new shape: the dims before start, -1, the dims after end (0 keeps a dim).
  std::vector<int64_t> shape;
  for (int64_t i = 0; i < start; ++i) shape.push_back(0);
  if (rank > 0) shape.push_back(-1);
  for (int64_t i = end + 1; i < rank; ++i) shape.push_back(0);
  if (rank == 0) shape = {1};
  e.bind(n.output(), e.add1("Reshape", {e.name(n.input(0)), e.const_ints(shape)}));
}

void transpose(Emitter& e, N n) {
  int64_t rank = need_rank(e, n, 0);
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i) perm.push_back(i);
  if (n.kind() == "aten::t") {
    if (rank == 2) std::swap(perm[0], perm[1]);
  } else if (n.kind() == "aten::permute") {
    perm = need_ints(e, n, 1, "dims");
    for (auto& p : perm) p = p < 0 ? p + rank : p;
  } else {
    int64_t a = need_int(e, n, 1, "dim0"), b = need_int(e, n, 2, "dim1");
    if (a < 0) a += rank;
    if (b < 0) b += rank;
    std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(b)]);
  }
  e.bind(n.output(), e.add1("Transpose", {e.name(n.input(0))},
                            [&](onnx::NodeProto* p) { attr_ints(p, "perm", perm); }));
}

void unsqueeze(Emitter& e, N n) {
  e.bind(n.output(), e.add1("Unsqueeze", {e.name(n.input(0)), e.const_ints({axis_arg(e, n, 1)})}));
}

void squeeze(Emitter& e, N n) {
  if (n.inputs().size() == 1) {
    e.bind(n.output(), e.add1("Squeeze", {e.name(n.input(0))}));
    return;
  }
  // torch squeezes a dim only when it is 1; ONNX fails otherwise: only known 1-dims.
  int64_t dim = axis_arg(e, n, 1);
  const ir::Type& t = n.input(0)->type();
  if (t.shape) {
    int64_t r = static_cast<int64_t>(t.shape->size());
    int64_t d = dim < 0 ? dim + r : dim;
    if (d >= 0 && d < r && (*t.shape)[static_cast<size_t>(d)].is_known() &&
        (*t.shape)[static_cast<size_t>(d)].size != 1) {
      e.bind(n.output(), e.name(n.input(0)));
      return;
    }
  }
  e.bind(n.output(), e.add1("Squeeze", {e.name(n.input(0)), e.const_ints({dim})}));
}

void concat(Emitter& e, N n, bool stack) {
  int64_t dim = n.inputs().size() > 1 ? axis_arg(e, n, 1) : 0;
  std::vector<std::string> parts;
  DType d = DType::Bool;
  auto items = e.list_items(n.input(0), n);
  for (const ir::Value* v : items) d = promote(d, e.dtype(v));
  for (const ir::Value* v : items) {
    std::string x = e.name_as(v, d);
    if (stack) x = e.add1("Unsqueeze", {x, e.const_ints({dim})});
    parts.push_back(x);
  }
  e.bind(n.output(),
         e.add1("Concat", parts, [&](onnx::NodeProto* p) { attr_int(p, "axis", dim); }));
}

void select(Emitter& e, N n) {
  int64_t dim = axis_arg(e, n, 1);
  std::string index = e.name_as(n.input(2), DType::Int64);
  e.bind(n.output(), e.add1("Gather", {e.name(n.input(0)), index},
                            [&](onnx::NodeProto* p) { attr_int(p, "axis", dim); }));
}

void slice(Emitter& e, N n) {
  int64_t dim = n.inputs().size() > 1 ? axis_arg(e, n, 1) : 0;
  auto bound = [&](size_t i, int64_t dflt) {
    if (n.inputs().size() <= i || Emitter::is_none(n.input(i))) return e.const_ints({dflt});
    return e.add1("Unsqueeze", {e.name_as(n.input(i), DType::Int64), e.const_ints({0})});
  };
  std::string start = bound(2, 0);
  std::string end = bound(3, std::numeric_limits<int64_t>::max());
  int64_t step = n.inputs().size() > 4 ? need_int(e, n, 4, "step") : 1;
  e.bind(n.output(), e.add1("Slice", {e.name(n.input(0)), start, end, e.const_ints({dim}),
                                      e.const_ints({step})}));
}

void size(Emitter& e, N n) {
  std::string shape = e.add1("Shape", {e.name(n.input(0))});
  if (n.inputs().size() == 1) {
    e.bind(n.output(), shape);
    return;
  }
  std::string i = e.name_as(n.input(1), DType::Int64);
  e.bind(n.output(),
         e.add1("Gather", {shape, i}, [](onnx::NodeProto* p) { attr_int(p, "axis", 0); }));
}

void like(Emitter& e, N n, double value) {
  DType d = e.dtype(n.output());
  std::string shape = e.add1("Shape", {e.name(n.input(0))});
  Tensor v = Tensor::full({1}, value, d);
  e.bind(n.output(), e.add1("ConstantOfShape", {shape}, [&](onnx::NodeProto* p) {
    auto* a = p->add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    tensor_to_proto(v, "", a->mutable_t());
  }));
}

void filled(Emitter& e, N n, double value) {
  DType d = e.dtype(n.output());
  Tensor v = Tensor::full({1}, value, d);
  e.bind(n.output(),
         e.add1("ConstantOfShape", {e.int_list(n.input(0), n)}, [&](onnx::NodeProto* p) {
           auto* a = p->add_attribute();
           a->set_name("value");
           a->set_type(onnx::AttributeProto::TENSOR);
           tensor_to_proto(v, "", a->mutable_t());
         }));
}

void where(Emitter& e, N n) {
  DType d = out_dtype(e, n, promote(e.dtype(n.input(1)), e.dtype(n.input(2))));
  e.bind(n.output(), e.add1("Where", {e.name_as(n.input(0), DType::Bool), e.name_as(n.input(1), d),
                                      e.name_as(n.input(2), d)}));
}

void clamp(Emitter& e, N n) {
  DType d = e.dtype(n.input(0));
  std::string x = e.name(n.input(0));
  if (n.kind() == "aten::clamp_min" || n.kind() == "aten::clamp_max") {
    bool is_min = n.kind() == "aten::clamp_min";
    std::string b = e.name_as(n.input(1), d);
    e.bind(n.output(), e.add1(is_min ? "Max" : "Min", {x, b}));
    return;
  }
  if (n.inputs().size() > 1 && !Emitter::is_none(n.input(1))) {
    x = e.add1("Max", {x, e.name_as(n.input(1), d)});
  }
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    x = e.add1("Min", {x, e.name_as(n.input(2), d)});
  }
  e.bind(n.output(), x);
}

void pow(Emitter& e, N n) {
  DType d = out_dtype(e, n, promote(e.dtype(n.input(0)), e.dtype(n.input(1))));
  e.bind(n.output(), e.add1("Pow", {e.name_as(n.input(0), d), e.name_as(n.input(1), d)}));
}

void floordiv(Emitter& e, N n) {
  DType d = out_dtype(e, n, promote(e.dtype(n.input(0)), e.dtype(n.input(1))));
  std::string q = e.add1("Floor", {e.add1("Div", {e.name_as(n.input(0), DType::Float32),
                                                  e.name_as(n.input(1), DType::Float32)})});
  e.bind(n.output(), e.cast(q, DType::Float32, d));
}

void remainder(Emitter& e, N n) {
  DType d = out_dtype(e, n, promote(e.dtype(n.input(0)), e.dtype(n.input(1))));
  std::string a = e.name_as(n.input(0), d), b = e.name_as(n.input(1), d);
  if (d == DType::Int64) {
    e.bind(n.output(), e.add1("Mod", {a, b}, [](onnx::NodeProto* p) { attr_int(p, "fmod", 0); }));
    return;
  }
  // Python's a % b = a - floor(a / b) * b (the sign of b).
  std::string q = e.add1("Floor", {e.add1("Div", {a, b})});
  e.bind(n.output(), e.add1("Sub", {a, e.add1("Mul", {q, b})}));
}

void mse_loss(Emitter& e, N n) {
  std::string d = e.add1("Sub", {e.name(n.input(0)), e.name(n.input(1))});
  std::string sq = e.add1("Mul", {d, d});
  const IValue* r = n.inputs().size() > 2 ? Emitter::constant(n.input(2)) : nullptr;
  std::string mode = r && r->is_string() ? r->to_string() : "mean";
  if (r && r->is_int()) mode = r->to_int() == 0 ? "none" : r->to_int() == 1 ? "mean" : "sum";
  if (mode == "none") return e.bind(n.output(), sq);
  e.bind(n.output(), reduce(e, mode == "sum" ? "ReduceSum" : "ReduceMean", sq, nullptr, false));
}

void numel(Emitter& e, N n) {
  e.bind(n.output(), e.add1("Size", {e.name(n.input(0))}));
}

void dim(Emitter& e, N n) {
  e.bind(n.output(), e.const_scalar(static_cast<double>(need_rank(e, n, 0)), DType::Int64));
}

void to_dtype(Emitter& e, N n) {
  // to.dtype(self, dtype, ...), to.other(self, other, ...), type_as(self, other),
  // to.device(self, device, dtype?, ...).
  DType to = e.dtype(n.output());
  e.bind(n.output(), e.cast(e.name(n.input(0)), e.dtype(n.input(0)), to));
}

void expand(Emitter& e, N n) {
  std::vector<int64_t> sizes;
  if (n.kind() == "aten::expand_as") {
    std::string shape = e.add1("Shape", {e.name(n.input(1))});
    e.bind(n.output(), e.add1("Expand", {e.name(n.input(0)), shape}));
    return;
  }
  // -1 keeps a dim: ONNX Expand broadcasts a 1 against it the same way.
  std::string shape;
  if (Emitter::constant_ints(n.input(1), &sizes)) {
    for (auto& s : sizes) s = s == -1 ? 1 : s;
    shape = e.const_ints(sizes);
  } else {
    shape = e.int_list(n.input(1), n);
  }
  e.bind(n.output(), e.add1("Expand", {e.name(n.input(0)), shape}));
}

void repeat(Emitter& e, N n) {
  e.bind(n.output(), e.add1("Tile", {e.name(n.input(0)), e.int_list(n.input(1), n)}));
}

void item(Emitter& e, N n) {
  // A one-element tensor to a number: reshaped to 0-d, in the number's dtype.
  std::string x = e.add1("Reshape", {e.name(n.input(0)), e.const_ints({})});
  DType to = e.dtype(n.output());
  if (n.output()->type().kind == ir::TypeKind::Any) to = e.dtype(n.input(0));
  e.bind(n.output(), e.cast(x, e.dtype(n.input(0)), to));
}

void number_of(Emitter& e, N n) {
  // Float(x) / Int(x) / Bool(x) of a tensor or number.
  std::string x = e.name(n.input(0));
  if (n.input(0)->type().is_tensor()) x = e.add1("Reshape", {x, e.const_ints({})});
  e.bind(n.output(), e.cast(x, e.dtype(n.input(0)), e.dtype(n.output())));
}

void tuple_index(Emitter& e, N n) {
  auto items = e.list_items(n.input(0), n);
  int64_t i = need_int(e, n, 1, "index");
  if (i < 0) i += static_cast<int64_t>(items.size());
  if (i < 0 || i >= static_cast<int64_t>(items.size())) e.fail(n, "tuple index out of range");
  e.bind(n.output(), e.name(items[static_cast<size_t>(i)]));
}

void unpack(Emitter& e, N n) {
  const ir::Node* p = n.input(0)->node();
  if (p->kind() == ir::kind::TupleConstruct || p->kind() == ir::kind::ListConstruct) {
    for (size_t i = 0; i < n.outputs().size(); ++i) e.bind(n.output(i), e.name(p->input(i)));
    return;
  }
  // An int[] (x.size()) unpacked: one Gather per item.
  std::string list = e.name(n.input(0));
  for (size_t i = 0; i < n.outputs().size(); ++i) {
    e.bind(n.output(i),
           e.add1("Gather", {list, e.const_scalar(static_cast<double>(i), DType::Int64)},
                  [](onnx::NodeProto* q) { attr_int(q, "axis", 0); }));
  }
}

void uninitialized(Emitter& e, N n) {
  // Never read: any value of the right element type will do.
  e.bind(n.output(), e.const_scalar(0, e.dtype(n.output())));
}

void not_op(Emitter& e, N n) {
  e.bind(n.output(), e.add1("Not", {e.name_as(n.input(0), DType::Bool)}));
}

void norm(Emitter& e, N n) {
  double p = n.inputs().size() > 1 && !Emitter::is_none(n.input(1)) ? need_number(e, n, 1, "p") : 2;
  std::string x = e.name(n.input(0));
  const char* op = p == 2 ? "ReduceL2" : p == 1 ? "ReduceL1" : nullptr;
  if (!op) e.fail(n, "norm with p other than 1 or 2");
  if (n.inputs().size() > 2) {
    std::vector<int64_t> axes = need_ints(e, n, 2, "dim");
    bool keepdim = n.inputs().size() > 3 && need_int(e, n, 3, "keepdim");
    e.bind(n.output(), reduce(e, op, x, &axes, keepdim));
  } else {
    e.bind(n.output(), reduce(e, op, x, nullptr, false));
  }
}

void tril_triu(Emitter& e, N n, bool upper) {
  std::vector<std::string> ins = {e.name(n.input(0))};
  if (n.inputs().size() > 1) {
    ins.push_back(e.add1("Reshape", {e.name_as(n.input(1), DType::Int64), e.const_ints({})}));
  }
  e.bind(n.output(),
         e.add1("Trilu", ins, [&](onnx::NodeProto* p) { attr_int(p, "upper", upper); }));
}

void index_select(Emitter& e, N n) {
  int64_t dim = axis_arg(e, n, 1);
  e.bind(n.output(), e.add1("Gather", {e.name(n.input(0)), e.name(n.input(2))},
                            [&](onnx::NodeProto* p) { attr_int(p, "axis", dim); }));
}

void masked_fill(Emitter& e, N n) {
  DType d = e.dtype(n.input(0));
  e.bind(n.output(), e.add1("Where", {e.name_as(n.input(1), DType::Bool), e.name_as(n.input(2), d),
                                      e.name(n.input(0))}));
}

void argmax(Emitter& e, N n, bool largest) {
  std::string x = e.name(n.input(0));
  int64_t dim = 0;
  bool keepdim = n.inputs().size() > 2 && need_int(e, n, 2, "keepdim");
  if (n.inputs().size() < 2 || Emitter::is_none(n.input(1))) {
    x = e.add1("Reshape", {x, e.const_ints({-1})});  // over all elements
    keepdim = false;
  } else {
    dim = need_int(e, n, 1, "dim");
  }
  e.bind(n.output(), e.add1(largest ? "ArgMax" : "ArgMin", {x}, [&](onnx::NodeProto* p) {
    attr_int(p, "axis", dim);
    attr_int(p, "keepdims", keepdim);
  }));
}

void square(Emitter& e, N n) {
  std::string x = e.name(n.input(0));
  e.bind(n.output(), e.add1("Mul", {x, x}));
}

void rsqrt(Emitter& e, N n) {
  e.bind(n.output(),
         e.add1("Reciprocal", {e.add1("Sqrt", {e.name_as(n.input(0), DType::Float32)})}));
}

void unary_via(Emitter& e, N n, const std::function<std::string(const std::string&)>& f) {
  e.bind(n.output(), f(e.name_as(n.input(0), DType::Float32)));
}

const std::map<std::string, Fn>& table() {
  static const std::map<std::string, Fn> t = [] {
    std::map<std::string, Fn> m;
    for (const auto& [k, op] : std::vector<std::pair<const char*, const char*>>{
             {"relu", "Relu"},   {"tanh", "Tanh"}, {"sigmoid", "Sigmoid"},
             {"exp", "Exp"},     {"log", "Log"},   {"sqrt", "Sqrt"},
             {"abs", "Abs"},     {"neg", "Neg"},   {"sin", "Sin"},
             {"cos", "Cos"},     {"tan", "Tan"},   {"asin", "Asin"},
             {"acos", "Acos"},   {"atan", "Atan"}, {"sinh", "Sinh"},
             {"cosh", "Cosh"},   {"erf", "Erf"},   {"reciprocal", "Reciprocal"},
             {"floor", "Floor"}, {"ceil", "Ceil"}, {"round", "Round"},
             {"sign", "Sign"}}) {
      m[std::string("aten::") + k] = unary(op);
    }
    m["aten::fabs"] = unary("Abs");
    m["aten::add"] = arith("Add");
    m["aten::sub"] = arith("Sub");
    m["aten::mul"] = arith("Mul");
    m["aten::div"] = [](Emitter& e, N n) {
      if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
        const IValue* mode = Emitter::constant(n.input(2));
        if (mode && mode->is_string() && mode->to_string() == "floor") return floordiv(e, n);
        e.fail(n, "div with rounding_mode other than 'floor'");
      }
      arith("Div")(e, n);
    };
    m["aten::rsub"] = rsub();
    m["aten::floordiv"] = floordiv;
    m["aten::floor_divide"] = floordiv;
    m["aten::remainder"] = remainder;
    m["aten::pow"] = pow;
    m["aten::float_power"] = pow;
    m["aten::maximum"] = [](Emitter& e, N n) { extreme(true)(e, n); };
    m["aten::minimum"] = [](Emitter& e, N n) {
      DType d = promote(e.dtype(n.input(0)), e.dtype(n.input(1)));
      e.bind(n.output(), e.add1("Min", {e.name_as(n.input(0), d), e.name_as(n.input(1), d)}));
    };
    m["aten::maximum"] = [](Emitter& e, N n) {
      DType d = promote(e.dtype(n.input(0)), e.dtype(n.input(1)));
      e.bind(n.output(), e.add1("Max", {e.name_as(n.input(0), d), e.name_as(n.input(1), d)}));
    };
    m["aten::lt"] = compare("Less");
    m["aten::gt"] = compare("Greater");
    m["aten::le"] = compare("LessOrEqual");
    m["aten::ge"] = compare("GreaterOrEqual");
    m["aten::eq"] = compare("Equal");
    m["aten::ne"] = compare("Equal", true);
    for (const char* k : {"aten::logical_and", "aten::__and__", "aten::bitwise_and"})
      m[k] = logic("And");
    for (const char* k : {"aten::logical_or", "aten::__or__", "aten::bitwise_or"})
      m[k] = logic("Or");
    for (const char* k : {"aten::logical_xor", "aten::__xor__", "aten::bitwise_xor"})
      m[k] = logic("Xor");
    m["aten::__not__"] = not_op;
    m["aten::logical_not"] = not_op;
    m["aten::bitwise_not"] = not_op;
    m["aten::Float"] = number_of;
    m["aten::Int"] = number_of;
    m["aten::Bool"] = number_of;
    m["aten::item"] = item;
    for (const char* k : {"aten::clone", "aten::contiguous", "aten::detach", "aten::cpu"})
      m[k] = identity();
    m["aten::sum"] = reduction("ReduceSum", false);
    m["aten::mean"] = reduction("ReduceMean", true);
    m["aten::prod"] = reduction("ReduceProd", false);
    m["aten::amax"] = reduction("ReduceMax", false);
    m["aten::amin"] = reduction("ReduceMin", false);
    m["aten::logsumexp"] = reduction("ReduceLogSumExp", true);
    m["aten::max"] = extreme(true);
    m["aten::min"] = extreme(false);
    m["aten::norm"] = norm;
    m["aten::linear"] = linear;
    m["aten::addmm"] = addmm;
    for (const char* k : {"aten::matmul", "aten::mm", "aten::bmm", "aten::mv", "aten::dot"})
      m[k] = matmul;
    m["aten::softmax"] = [](Emitter& e, N n) { softmax_like(e, n, "Softmax"); };
    m["aten::log_softmax"] = [](Emitter& e, N n) { softmax_like(e, n, "LogSoftmax"); };
    m["aten::view"] = reshape;
    m["aten::reshape"] = reshape;
    m["aten::view_as"] = [](Emitter& e, N n) {
      e.bind(n.output(),
             e.add1("Reshape", {e.name(n.input(0)), e.add1("Shape", {e.name(n.input(1))})}));
    };
    m["aten::reshape_as"] = m["aten::view_as"];
    m["aten::flatten"] = flatten;
    m["aten::t"] = transpose;
    m["aten::transpose"] = transpose;
    m["aten::permute"] = transpose;
    m["aten::unsqueeze"] = unsqueeze;
    m["aten::squeeze"] = squeeze;
    m["aten::cat"] = [](Emitter& e, N n) { concat(e, n, false); };
    m["aten::stack"] = [](Emitter& e, N n) { concat(e, n, true); };
    m["aten::select"] = select;
    m["aten::slice"] = slice;
    m["aten::size"] = size;
    m["aten::len"] = [](Emitter& e, N n) {
      if (!n.input(0)->type().is_tensor()) e.fail(n, "len() of a list");
      std::string shape = e.add1("Shape", {e.name(n.input(0))});
      e.bind(n.output(), e.add1("Gather", {shape, e.const_scalar(0, DType::Int64)},
                                [](onnx::NodeProto* p) { attr_int(p, "axis", 0); }));
    };
    m["aten::numel"] = numel;
    m["aten::dim"] = dim;
    m["aten::ones_like"] = [](Emitter& e, N n) { like(e, n, 1); };
    m["aten::zeros_like"] = [](Emitter& e, N n) { like(e, n, 0); };
    m["aten::full_like"] = [](Emitter& e, N n) { like(e, n, need_number(e, n, 1, "fill_value")); };
    m["aten::ones"] = [](Emitter& e, N n) { filled(e, n, 1); };
    m["aten::zeros"] = [](Emitter& e, N n) { filled(e, n, 0); };
    m["aten::full"] = [](Emitter& e, N n) { filled(e, n, need_number(e, n, 1, "fill_value")); };
    m["aten::where"] = where;
    m["aten::clamp"] = clamp;
    m["aten::clamp_min"] = clamp;
    m["aten::clamp_max"] = clamp;
    m["aten::mse_loss"] = mse_loss;
    m["aten::to"] = to_dtype;
    m["aten::type_as"] = to_dtype;
    m["aten::expand"] = expand;
    m["aten::expand_as"] = expand;
    m["aten::repeat"] = repeat;
    m["aten::tril"] = [](Emitter& e, N n) { tril_triu(e, n, false); };
    m["aten::triu"] = [](Emitter& e, N n) { tril_triu(e, n, true); };
    m["aten::index_select"] = index_select;
    m["aten::masked_fill"] = masked_fill;
    m["aten::square"] = square;
    m["aten::argmax"] = [](Emitter& e, N n) { argmax(e, n, true); };
    m["aten::argmin"] = [](Emitter& e, N n) { argmax(e, n, false); };
    m["aten::rsqrt"] = rsqrt;
    m["aten::log2"] = [](Emitter& e, N n) {
      unary_via(e, n, [&](const std::string& x) {
        return e.add1("Div", {e.add1("Log", {x}), e.const_scalar(std::log(2.0), DType::Float32)});
      });
    };
    m["aten::log10"] = [](Emitter& e, N n) {
      unary_via(e, n, [&](const std::string& x) {
        return e.add1("Div", {e.add1("Log", {x}), e.const_scalar(std::log(10.0), DType::Float32)});
      });
    };
    m["aten::log1p"] = [](Emitter& e, N n) {
      unary_via(e, n, [&](const std::string& x) {
        return e.add1("Log", {e.add1("Add", {x, e.const_scalar(1, DType::Float32)})});
      });
    };
    m["aten::expm1"] = [](Emitter& e, N n) {
      unary_via(e, n, [&](const std::string& x) {
        return e.add1("Sub", {e.add1("Exp", {x}), e.const_scalar(1, DType::Float32)});
      });
    };
    m["prim::TupleIndex"] = tuple_index;
    m["prim::TupleUnpack"] = unpack;
    m["prim::ListUnpack"] = unpack;
    m["prim::Uninitialized"] = uninitialized;
    add_conv_pool_exports(m);
    add_activation_exports(m);
    add_norm_exports(m);
    add_rnn_exports(m);
    add_index_exports(m);
    add_resize_exports(m);
    return m;
  }();
  return t;
}

}  // namespace

const ExportFn* find_export(const std::string& kind) {
  auto it = table().find(kind);
  return it == table().end() ? nullptr : &it->second;
}

std::vector<std::string> exported_kinds() {
  std::vector<std::string> out;
  for (const auto& [k, _] : table()) out.push_back(k);
  return out;
}

}  // namespace d2s::onnx_io
