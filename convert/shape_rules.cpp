// Per-op dtype and shape rules (see shape_rules.h), grouped by how the result's
// shape follows from the inputs: elementwise (broadcast), same shape, reductions,
// linear algebra here; shape manipulation and creation in shape_rules_layout.cpp, the
// other families in shape_rules_<family>.cpp. The rule table, which holds every
// family's rules by op kind, and infer_node_types, which applies them, are here too.
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

// The dims a reduction keeps: the "dim" argument (None or [] means all), and keepdim.
std::optional<Dims> reduced_dims(const Args& a) {
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
  return out;
}

// How a reduction's dtype follows self's.
enum class ReducedDType { Same, Float, SumLike, Index, Bool };

std::optional<std::vector<Type>> reduction(const Args& a, ReducedDType how) {
  std::optional<DType> d = a.type(0).dtype;
  switch (how) {
    case ReducedDType::Same:
      break;
    case ReducedDType::Float:
      d = DType::Float32;
      break;
    case ReducedDType::SumLike:  // sum and prod of bools count in int64
      if (d && *d == DType::Bool) d = DType::Int64;
      break;
    case ReducedDType::Index:
      d = DType::Int64;
      break;
    case ReducedDType::Bool:
      d = DType::Bool;
      break;
  }
  if (auto given = a.dtype_arg()) d = given;
  return one(tensor(d, reduced_dims(a)));
}

// max and min: max(other) is elementwise, max(dim) gives (values, indices), max() one value.
bool is_binary_overload(const Args& a) {
  return a.index("other") != std::string::npos;
}

std::optional<std::vector<Type>> max_min_reduction(const Args& a) {
  std::optional<std::vector<Type>> types = reduction(a, ReducedDType::Same);
  if (a.def() && a.def()->schema.returns.size() == 2) {
    types->push_back(tensor(DType::Int64, (*types)[0].shape));  // (values, indices)
  }
  return types;
}

// Whether the op table tags the node's op float-promoting (OpTag::FloatPromoting):
// the tag is the same on all of an op's overloads, so any one tells.
bool float_promoting(const ir::Node& n) {
  const OpDef* def = n.op();
  if (!def && n.overloads() && !n.overloads()->empty()) def = &n.overloads()->front();
  return def && def->tags.has(OpTag::FloatPromoting);
}

// How an elementwise op's dtype follows its operands'.
enum class ResultDType { Promoted, Float, Bool, Self };

// Elementwise over the first `operands` arguments, broadcast; the dtype promoted over
// those from `first_typed` on (where's condition does not count).
std::optional<std::vector<Type>> broadcast(const Args& a, size_t operands, ResultDType how,
                                           size_t first_typed = 0) {
  const Type* ts[3];  // the typed operands (where's self and other; at most 3 operands)
  size_t typed = 0;
  std::optional<Dims> shape = Dims{};
  for (size_t i = 0; i < operands; ++i) {
    const Type& t = a.type(i);
    if (i >= first_typed) ts[typed++] = &t;
    if (t.is_tensor()) {
      if (!t.shape)
        shape.reset();
      else if (shape)
        shape = broadcast_dims(*shape, *t.shape);
    }
  }
  std::optional<DType> d = promote(ts, ts + typed);
  if (how == ResultDType::Float) d = DType::Float32;
  if (how == ResultDType::Bool) d = DType::Bool;
  return one(tensor(d, std::move(shape)));
}

// Self's shape; the dtype self's, turned as `how` says, or the dtype argument when given.
std::optional<std::vector<Type>> same_shape_as_self(const Args& a, ResultDType how) {
  std::optional<DType> d = a.type(0).dtype;
  if (how == ResultDType::Float && d) d = DType::Float32;
  if (how == ResultDType::Bool) d = DType::Bool;
  if (auto given = a.dtype_arg()) d = given;
  return one(tensor(d, same_shape(a)));
}

// The loss of the class-index losses unreduced: one per row ([N] of an [N, C] input, 0-d
// of a [C] one).
std::optional<Dims> per_row(const Args& a) {
  const Dims* s = a.shape(0);
  if (!s) return std::nullopt;
  return s->size() == 2 ? Dims{(*s)[0]} : Dims{};
}

// mm of the 2-D arguments at `first` and first + 1 (addmm's self is the bias): [n, k] @
// [k, m] is [n, m].
std::optional<std::vector<Type>> matrix_product(const Args& a, size_t first) {
  const Dims *x = a.shape(first), *y = a.shape(first + 1);
  std::optional<Dims> shape;
  if (x && y && x->size() == 2 && y->size() == 2) shape = Dims{(*x)[0], (*y)[1]};
  return one(tensor(promote({a.type(first), a.type(first + 1)}), shape));
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

// ---------------------------------------------------------------- the table

void shape_detail::RuleTable::add(std::initializer_list<std::string_view> kinds, Rule rule) {
  for (std::string_view kind : kinds) {
    const size_t i = ir::Symbol::intern(kind).index();
    if (i >= by_symbol_.size()) by_symbol_.resize(i + 1, nullptr);
    if (by_symbol_[i]) {
      throw std::logic_error("two shape rules for " + std::string(kind));
    }
    by_symbol_[i] = rule;
    kinds_.emplace_back(kind);
  }
}

const shape_detail::RuleTable& shape_detail::rule_table() {
  static const RuleTable table = [] {
    RuleTable t;
    add_elementwise_rules(t);
    add_layout_rules(t);
    add_conv_pool_rules(t);
    add_resize_rules(t);
    add_norm_rules(t);
    add_recurrent_rules(t);
    add_index_sort_rules(t);
    add_tensorops_rules(t);
    return t;
  }();
  return table;
}

void shape_detail::add_elementwise_rules(RuleTable& t) {
  using R = ResultDType;
  using Out = std::optional<std::vector<Type>>;
  // Elementwise over two broadcast operands.
  t.add({"aten::add", "aten::sub", "aten::rsub", "aten::mul", "aten::floor_divide",
         "aten::remainder", "aten::pow", "aten::maximum", "aten::minimum", "aten::__and__",
         "aten::__or__", "aten::__xor__", "aten::bitwise_and", "aten::bitwise_or",
         "aten::bitwise_xor", "aten::atan2"},
        [](const Args& a, const ir::Node&) { return broadcast(a, 2, R::Promoted); });
  // True division computes in float; div(rounding_mode=...) keeps the promoted dtype.
  t.add({"aten::div"}, [](const Args& a, const ir::Node&) {
    return broadcast(a, 2, a.index("rounding_mode") == std::string::npos ? R::Float : R::Promoted);
  });
  t.add({"aten::eq", "aten::ne", "aten::lt", "aten::le", "aten::gt", "aten::ge",
         "aten::logical_and", "aten::logical_or", "aten::logical_xor"},
        [](const Args& a, const ir::Node&) { return broadcast(a, 2, R::Bool); });
  // In place, and masked_fill: self's dtype and shape.
  t.add({"aten::add_", "aten::sub_", "aten::mul_", "aten::div_", "aten::masked_fill"},
        [](const Args& a, const ir::Node&) { return one(tensor(a.type(0).dtype, same_shape(a))); });
  // where(condition, self, other): the three broadcast, the dtype the branches'; the
  // one-argument where(condition) gives one 1-D long tensor per dim of the condition,
  // each as long as it has nonzero elements (unknown here).
  t.add({"aten::where"}, [](const Args& a, const ir::Node& n) -> Out {
    if (n.output(0)->type().kind == TypeKind::List) {
      return one(Type::list(tensor(DType::Int64, Dims{Dim{}})));
    }
    return broadcast(a, 3, R::Promoted, 1);
  });
  t.add({"aten::max", "aten::min"}, [](const Args& a, const ir::Node&) -> Out {
    return is_binary_overload(a) ? broadcast(a, 2, R::Promoted) : max_min_reduction(a);
  });

  // Losses: float, 0-d unless reduction='none'.
  t.add({"aten::mse_loss", "aten::l1_loss", "aten::smooth_l1_loss"},
        [](const Args& a, const ir::Node&) -> Out {
          std::optional<Dims> both = (*broadcast(a, 2, R::Float))[0].shape;
          return one(tensor(DType::Float32, loss_shape(a, 2, both)));
        });
  // ctc_loss unreduced: one per sequence ([N] of [T, N, C] log_probs, 0-d of one
  // unbatched [T, C] sequence).
  t.add({"aten::ctc_loss"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> unreduced;
    if (s) unreduced = s->size() == 3 ? Dims{(*s)[1]} : Dims{};
    return one(tensor(DType::Float32, loss_shape(a, 5, unreduced)));
  });
  t.add({"aten::nll_loss", "aten::cross_entropy_loss"}, [](const Args& a, const ir::Node&) {
    return one(tensor(DType::Float32, loss_shape(a, 3, per_row(a))));
  });
  t.add({"aten::binary_cross_entropy_with_logits"}, [](const Args& a, const ir::Node&) {
    return one(tensor(DType::Float32, loss_shape(a, 4, same_shape(a))));
  });

  // Self's shape; self's dtype, or float32 for an op the table tags float-promoting
  // (exp, sigmoid, softmax, ...: integers and bools compute in float, as in PyTorch);
  // the dtype argument when given (zeros_like(x, dtype=...)).
  t.add({"aten::neg",         "aten::abs",         "aten::sign",       "aten::square",
         "aten::relu",        "aten::floor",       "aten::ceil",       "aten::trunc",
         "aten::round",       "aten::bitwise_not", "aten::clamp",      "aten::clamp_min",
         "aten::clamp_max",   "aten::contiguous",  "aten::clone",      "aten::detach",
         "aten::cpu",         "aten::tril",        "aten::triu",       "aten::dropout",
         "aten::leaky_relu",  "aten::zeros_like",  "aten::ones_like",  "aten::full_like",
         "aten::empty_like",  "aten::rand_like",   "aten::randn_like", "aten::exp",
         "aten::exp2",        "aten::expm1",       "aten::log",        "aten::log2",
         "aten::log10",       "aten::log1p",       "aten::sqrt",       "aten::rsqrt",
         "aten::reciprocal",  "aten::sin",         "aten::cos",        "aten::tan",
         "aten::asin",        "aten::acos",        "aten::atan",       "aten::sinh",
         "aten::cosh",        "aten::tanh",        "aten::erf",        "aten::sigmoid",
         "aten::gelu",        "aten::silu",        "aten::softplus",   "aten::softmax",
         "aten::log_softmax", "aten::layer_norm"},
        [](const Args& a, const ir::Node& n) {
          return same_shape_as_self(a, float_promoting(n) ? R::Float : R::Self);
        });
  t.add({"aten::logical_not", "aten::isnan", "aten::isinf", "aten::isfinite"},
        [](const Args& a, const ir::Node&) { return same_shape_as_self(a, R::Bool); });
  t.add({"aten::type_as"},
        [](const Args& a, const ir::Node&) { return one(tensor(a.type(1).dtype, same_shape(a))); });
  // to(other): other's dtype; to(device, dtype=None): the dtype given, else self's;
  // to(dtype): the dtype given, unknown when it is not a constant.
  t.add({"aten::to"}, [](const Args& a, const ir::Node&) {
    std::optional<DType> d = a.type(0).dtype;
    if (is_binary_overload(a)) {
      d = a.type(1).dtype;
    } else if (a.index("device") != std::string::npos) {
      if (auto given = a.dtype_arg()) d = given;
    } else {
      d = a.dtype_arg();
    }
    return one(tensor(d, same_shape(a)));
  });

  // Reductions.
  t.add({"aten::sum", "aten::prod"},
        [](const Args& a, const ir::Node&) { return reduction(a, ReducedDType::SumLike); });
  // Self's dtype, or float32 for a float-promoting one (mean, std, norm, ...).
  t.add({"aten::mean", "aten::norm", "aten::std", "aten::var", "aten::logsumexp", "aten::amax",
         "aten::amin"},
        [](const Args& a, const ir::Node& n) {
          return reduction(a, float_promoting(n) ? ReducedDType::Float : ReducedDType::Same);
        });
  t.add({"aten::argmax", "aten::argmin"},
        [](const Args& a, const ir::Node&) { return reduction(a, ReducedDType::Index); });
  t.add({"aten::all", "aten::any"},
        [](const Args& a, const ir::Node&) { return reduction(a, ReducedDType::Bool); });

  // Linear algebra.
  t.add({"aten::mm"}, [](const Args& a, const ir::Node&) { return matrix_product(a, 0); });
  t.add({"aten::addmm"}, [](const Args& a, const ir::Node&) { return matrix_product(a, 1); });
  t.add({"aten::matmul", "aten::bmm", "aten::mv", "aten::dot"}, [](const Args& a, const ir::Node&) {
    return one(tensor(promote({a.type(0), a.type(1)}), matmul(a.shape(0), a.shape(1))));
  });
  t.add({"aten::outer"}, [](const Args& a, const ir::Node&) {
    const Dims *s = a.shape(0), *y = a.shape(1);
    std::optional<Dims> shape;
    if (s && y && s->size() == 1 && y->size() == 1) shape = Dims{(*s)[0], (*y)[0]};
    return one(tensor(promote({a.type(0), a.type(1)}), shape));
  });
  t.add({"aten::linear"}, [](const Args& a, const ir::Node&) {
    const Dims *s = a.shape(0), *w = a.shape(1);
    std::optional<Dims> shape;
    if (s && !s->empty() && w && (w->size() == 1 || w->size() == 2)) {
      shape = Dims(s->begin(), s->end() - 1);
      if (w->size() == 2) shape->push_back((*w)[0]);
    }
    return one(tensor(a.type(0).dtype, shape));
  });
}

std::vector<std::string> shape_rule_kinds() {
  return rule_table().kinds();
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
  // Rules below are for aten ops, looked up by the interned kind.
  if (!n.sym().is_aten() || n.outputs().empty()) return false;
  std::optional<std::vector<Type>> outs;
  Args a(n);
  if (Rule rule = rule_table().find(n.sym())) {
    outs = rule(a, n);
  } else if (a.def() && a.def()->mutates && a.type(0).is_tensor()) {
    // The other in-place ops (relu_, sigmoid_, elu_, dropout_, ...) write self with a
    // value of its own dtype and shape, and return it.
    outs = std::vector<Type>{a.type(0)};
  }
  if (!outs) return false;
  bool changed = false;
  for (size_t i = 0; i < outs->size() && i < n.outputs().size(); ++i) {
    // Tensor results take the rule's type; a list result (nonzero_numpy) takes a list
    // type; scalar results keep the schema's type.
    const Type& now = n.output(i)->type();
    const Type& rule_type = (*outs)[i];
    if (now.is_tensor() || (now.kind == TypeKind::List && rule_type.kind == TypeKind::List)) {
      changed |= set_type(n.output(i), rule_type);
    }
  }
  return changed;
}

}  // namespace d2s::convert
