// Per-op dtype and shape rules (see shape_rules.h), grouped by how the result's
// shape follows from the inputs: elementwise (broadcast), same shape, reductions,
// linear algebra here; shape manipulation and creation in shape_rules_layout.cpp.
#include "convert/shape_rules.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "convert/lower_context.h"
#include "convert/shape_rules_util.h"
#include "core/ops/op_registry.h"

namespace d2s::convert {

using namespace shape_detail;  // NOLINT: the rules' shared vocabulary

namespace {

// ---------------------------------------------------------------- rule groups

std::vector<Type> reduction(std::string_view k, const Args& a, const Type& self) {
  // Which dims: the "dim" argument (None or [] means all), and keepdim.
  std::optional<Dims> out;
  const Dims* s = a.shape(0);
  size_t di = a.index("dim");
  size_t ki = a.index("keepdim");
  bool keep = ki != std::string::npos && a.bool_at(ki).value_or(false);
  if (di == std::string::npos || a.is_none(di)) {
    out = keep && s ? std::optional<Dims>(Dims(s->size(), Dim::known(1))) : Dims{};
    if (keep && !s) out.reset();
  } else if (s) {
    std::optional<Dims> dims = a.dims_at(di);
    std::vector<bool> reduce(s->size(), false);
    bool ok = dims.has_value();
    if (ok && dims->empty()) std::fill(reduce.begin(), reduce.end(), true);
    for (size_t i = 0; ok && i < dims->size(); ++i) {
      auto w = (*dims)[i].is_known() ? wrap((*dims)[i].size, s->size()) : std::nullopt;
      if (!w)
        ok = false;
      else
        reduce[*w] = true;
    }
    if (ok) {
      out = Dims{};
      for (size_t i = 0; i < s->size(); ++i) {
        if (!reduce[i])
          out->push_back((*s)[i]);
        else if (keep)
          out->push_back(Dim::known(1));
      }
    }
  }
  std::optional<DType> d = self.dtype;
  if (in(k, {"mean", "norm", "std", "var", "logsumexp"})) d = DType::Float32;
  if (in(k, {"sum", "prod"}) && d && *d == DType::Bool) d = DType::Int64;
  if (in(k, {"argmax", "argmin"})) d = DType::Int64;
  if (in(k, {"all", "any"})) d = DType::Bool;
  if (auto given = a.dtype_arg()) d = given;
  std::vector<Type> types{tensor(d, out)};
  if (in(k, {"max", "min"}) && a.def() && a.def()->schema.returns.size() == 2) {
    types.push_back(tensor(DType::Int64, out));  // (values, indices)
  }
  return types;
}

std::optional<Dims> matmul(const Dims* a, const Dims* b) {
  if (!a || !b || a->empty() || b->empty()) return std::nullopt;
  if (a->size() == 1 && b->size() == 1) return Dims{};
  if (a->size() == 1) {  // (k) @ (..., k, m) → (..., m)
    Dims out(b->begin(), b->end() - 2);
    out.push_back(b->back());
    return out;
  }
  if (b->size() == 1) return Dims(a->begin(), a->end() - 1);
  Dims batch_a(a->begin(), a->end() - 2), batch_b(b->begin(), b->end() - 2);
  Dims out = broadcast_dims(batch_a, batch_b);
  out.push_back((*a)[a->size() - 2]);
  out.push_back(b->back());
  return out;
}

}  // namespace

Dims broadcast_dims(const Dims& a, const Dims& b) {
  size_t n = std::max(a.size(), b.size());
  Dims out(n);
  for (size_t i = 0; i < n; ++i) {
    const Dim* x = i < n - a.size() ? nullptr : &a[i - (n - a.size())];
    const Dim* y = i < n - b.size() ? nullptr : &b[i - (n - b.size())];
    if (!x)
      out[i] = *y;
    else if (!y)
      out[i] = *x;
    else if (*x == *y)
      out[i] = *x;
    else if (x->is_known() && x->size == 1)
      out[i] = *y;
    else if (y->is_known() && y->size == 1)
      out[i] = *x;
    else if (x->is_known() && x->size > 1 && !y->is_known())
      out[i] = *x;
    else if (y->is_known() && y->size > 1 && !x->is_known())
      out[i] = *y;
    else
      out[i] = Dim{};
  }
  return out;
}

bool infer_node_types(ir::Node& n) {
  const ir::Prim prim = n.prim();
  // Tuple and list structure.
  if (prim == ir::Prim::TupleConstruct) {
    std::vector<Type> items;
    for (ir::Value* v : n.inputs()) items.push_back(v->type());
    return set_type(n.output(), Type::tuple(std::move(items)));
  }
  if (prim == ir::Prim::TupleUnpack || prim == ir::Prim::ListUnpack) {
    const Type& t = n.input(0)->type();
    bool changed = false;
    for (size_t i = 0; i < n.outputs().size(); ++i) {
      if (t.kind == TypeKind::Tuple && i < t.elements.size())
        changed |= set_type(n.output(i), t.elements[i]);
      if (t.kind == TypeKind::List && !t.elements.empty())
        changed |= set_type(n.output(i), t.elements[0]);
    }
    return changed;
  }
  if (prim == ir::Prim::TupleIndex) {
    const Type& t = n.input(0)->type();
    std::optional<IValue> idx = n.inputs().size() > 1 ? constant_value(n.input(1)) : std::nullopt;
    if (!idx && n.attr("index")) idx = *n.attr("index");
    if (t.kind == TypeKind::Tuple && idx && idx->is_int()) {
      if (auto w = wrap(idx->to_int(), t.elements.size()))
        return set_type(n.output(), t.elements[*w]);
    }
    return false;
  }
  // Rules below are for aten ops, told by the interned kind's namespace.
  if (!n.sym().is_aten()) return false;
  // The rules are written by the name without its "aten::".
  const std::string_view k = std::string_view(n.kind()).substr(6);
  if (n.outputs().size() == 1 && n.output(0)->type().kind == TypeKind::List) {
    if (auto t = list_result_rule(k, n)) return set_type(n.output(), *t);
  }
  if (n.outputs().empty() || !n.output(0)->type().is_tensor()) {
    return false;  // scalar results keep the schema's type
  }
  Args a(n);
  const Type& self = a.type(0);
  const Dims* s = a.shape(0);
  std::optional<Type> out;
  std::vector<Type> outs;

  if (in(k,
         {"add",         "sub",         "rsub",       "mul",         "div",         "floor_divide",
          "remainder",   "pow",         "maximum",    "minimum",     "__and__",     "__or__",
          "__xor__",     "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or",
          "logical_xor", "eq",          "ne",         "lt",          "le",          "gt",
          "ge",          "where",       "add_",       "sub_",        "mul_",        "div_",
          "masked_fill", "atan2"}) ||
      (in(k, {"max", "min"}) && n.overload() == "other") ||
      in(k, {"mse_loss", "l1_loss", "smooth_l1_loss"})) {
    size_t operands = k == "where" ? 3 : 2;
    std::vector<Type> ts;
    std::optional<Dims> shape = Dims{};
    for (size_t i = 0; i < operands; ++i) {
      const Type& t = a.type(i);
      ts.push_back(t);
      if (t.is_tensor()) {
        if (!t.shape)
          shape.reset();
        else if (shape)
          shape = broadcast_dims(*shape, *t.shape);
      }
    }
    std::optional<DType> d = promote(k == "where" ? std::vector<Type>{ts[1], ts[2]} : ts);
    if (k == "div" && n.overload() != "Tensor_mode") d = DType::Float32;
    if (in(k, {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor"})) {
      d = DType::Bool;
    }
    if (in(k, {"add_", "sub_", "mul_", "div_", "masked_fill"})) {
      d = self.dtype;
      shape = s ? std::optional<Dims>(*s) : std::nullopt;
    }
    if (in(k, {"mse_loss", "l1_loss", "smooth_l1_loss"})) {
      auto r = a.value(2);
      if (!r || !r->is_string() || r->to_string() != "none") shape = Dims{};
      d = DType::Float32;
    }
    out = tensor(d, shape);
  } else if (k == "ctc_loss") {
    // A float loss: 0-d when reduced; unreduced, one per sequence ([N] of [T, N, C]
    // log_probs, 0-d of one unbatched [T, C] sequence).
    auto r = a.value(5);
    std::optional<Dims> shape = Dims{};
    if (!r || !r->is_string()) {
      shape.reset();
    } else if (r->to_string() == "none") {
      if (!s)
        shape.reset();
      else if (s->size() == 3)
        shape = Dims{(*s)[1]};
    }
    out = tensor(DType::Float32, shape);
  } else if (in(k, {"nll_loss", "cross_entropy_loss", "binary_cross_entropy_with_logits"})) {
    // A float loss: 0-d when reduced; unreduced, one per row ([N] of an [N, C] input, 0-d
    // of a [C] one) for the class-index losses, the input's shape for the binary one.
    auto r = a.value(k == "binary_cross_entropy_with_logits" ? 4 : 3);
    std::optional<Dims> shape = Dims{};
    if (r && r->is_string() && r->to_string() == "none") {
      if (k == "binary_cross_entropy_with_logits" || !s)
        shape = s ? std::optional<Dims>(*s) : std::nullopt;
      else
        shape = s->size() == 2 ? Dims{(*s)[0]} : Dims{};
    } else if (!r || !r->is_string()) {
      shape.reset();
    }
    out = tensor(DType::Float32, shape);
  } else if (in(k, {"neg",        "abs",         "sign",        "square",     "relu",
                    "floor",      "ceil",        "trunc",       "round",      "bitwise_not",
                    "clamp",      "clamp_min",   "clamp_max",   "contiguous", "clone",
                    "detach",     "cpu",         "tril",        "triu",       "dropout",
                    "leaky_relu", "zeros_like",  "ones_like",   "full_like",  "empty_like",
                    "rand_like",  "randn_like",  "type_as",     "to",         "float",
                    "long",       "bool",        "logical_not", "isnan",      "isinf",
                    "isfinite",   "exp",         "exp2",        "expm1",      "log",
                    "log2",       "log10",       "log1p",       "sqrt",       "rsqrt",
                    "reciprocal", "sin",         "cos",         "tan",        "asin",
                    "acos",       "atan",        "sinh",        "cosh",       "tanh",
                    "erf",        "sigmoid",     "gelu",        "silu",       "softplus",
                    "softmax",    "log_softmax", "layer_norm"})) {
    std::optional<DType> d = self.dtype;
    if (in(k, {"exp",  "exp2",  "expm1",      "log",     "log2",        "log10",     "log1p",
               "sqrt", "rsqrt", "reciprocal", "sin",     "cos",         "tan",       "asin",
               "acos", "atan",  "sinh",       "cosh",    "tanh",        "erf",       "sigmoid",
               "gelu", "silu",  "softplus",   "softmax", "log_softmax", "layer_norm"}) &&
        d && *d != DType::Float32) {
      d = DType::Float32;
    }
    if (in(k, {"logical_not", "isnan", "isinf", "isfinite", "bool"})) d = DType::Bool;
    if (k == "float") d = DType::Float32;
    if (k == "long") d = DType::Int64;
    if (k == "full_like" && !a.dtype_arg()) d = self.dtype;
    if (k == "type_as" || (k == "to" && n.overload() == "other")) d = a.type(1).dtype;
    if (k == "to" && n.overload() == "dtype") {
      auto code = a.int_at(1);
      DType dd;
      d = code && dtype_from_scalar_type(*code, &dd) ? std::optional<DType>(dd) : std::nullopt;
    }
    if (auto given = a.dtype_arg(); given && k != "to") d = given;
    if (k == "to" && n.overload() == "device") {
      if (auto given = a.dtype_arg()) d = given;
    }
    out = tensor(d, s ? std::optional<Dims>(*s) : std::nullopt);
  } else if (in(k, {"sum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "all",
                    "any", "norm", "logsumexp", "std", "var"})) {
    outs = reduction(k, a, self);
  } else if (k == "mm" || k == "addmm") {
    const Dims* x = a.shape(k == "mm" ? 0 : 1);
    const Dims* y = a.shape(k == "mm" ? 1 : 2);
    std::optional<Dims> shape;
    if (x && y && x->size() == 2 && y->size() == 2) shape = Dims{(*x)[0], (*y)[1]};
    out = tensor(promote({a.type(k == "mm" ? 0 : 1), a.type(k == "mm" ? 1 : 2)}), shape);
  } else if (k == "matmul" || k == "bmm" || k == "mv" || k == "dot" || k == "outer") {
    const Dims* y = a.shape(1);
    std::optional<Dims> shape;
    if (k == "outer" && s && y && s->size() == 1 && y->size() == 1)
      shape = Dims{(*s)[0], (*y)[0]};
    else if (k != "outer")
      shape = matmul(s, y);
    out = tensor(promote({self, a.type(1)}), shape);
  } else if (k == "linear") {
    const Dims* w = a.shape(1);
    std::optional<Dims> shape;
    if (s && !s->empty() && w && (w->size() == 1 || w->size() == 2)) {
      shape = Dims(s->begin(), s->end() - 1);
      if (w->size() == 2) shape->push_back((*w)[0]);
    }
    out = tensor(self.dtype, shape);
  } else if (auto cp = conv_pool_rule(k, a)) {
    outs = *cp;
  } else if (auto rz = resize_rule(k, a)) {
    outs = *rz;
  } else if (auto nr = norm_rule(k, a)) {
    outs = *nr;
  } else if (auto rr = recurrent_rule(k, a, n)) {
    outs = *rr;
  } else if (auto ix = index_sort_rule(k, a, n)) {
    outs = *ix;
  } else if (auto dg = diagonal_rule(k, a)) {
    out = dg;
  } else if (auto l = layout_rule(k, a, n)) {
    out = l;
  } else if (auto c = creation_rule(k, a, n)) {
    out = c;
  } else if (k.size() > 1 && k.back() == '_' && self.is_tensor()) {
    // The other in-place ops (relu_, sigmoid_, elu_, dropout_, ...) write self with a
    // value of its own dtype and shape, and return it.
    // The node's overload (resolved when it was made), or the default one when it
    // names none.
    const OpDef* def = n.overload().empty() ? nullptr : n.op();
    for (size_t i = 0; !def && n.overloads() && i < n.overloads()->size(); ++i) {
      if ((*n.overloads())[i].schema.overload.empty()) def = &(*n.overloads())[i];
    }
    if (def && def->mutates) out = self;
  }

  if (out) outs.insert(outs.begin(), *out);
  bool changed = false;
  for (size_t i = 0; i < outs.size() && i < n.outputs().size(); ++i) {
    if (n.output(i)->type().is_tensor()) changed |= set_type(n.output(i), outs[i]);
  }
  return changed;
}

}  // namespace d2s::convert
