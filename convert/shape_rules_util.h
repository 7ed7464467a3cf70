// Internal to the shape rules (shape_rules*.cpp): reading a node's arguments, dtype
// promotion, and products of symbolic dims.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "convert/lower_context.h"
#include "core/base/error.h"
#include "core/ir/effects.h"
#include "core/ir/ir.h"
#include "core/ops/loss_util.h"
#include "core/ops/op_registry.h"

namespace d2s::convert::shape_detail {

using ir::Dim;
using ir::Type;
using ir::TypeKind;
using Dims = std::vector<Dim>;

inline std::optional<DType> dtype_of(const Type& t) {
  switch (t.kind) {
    case TypeKind::Tensor:
      return t.dtype;
    case TypeKind::Int:
      return DType::Int64;
    case TypeKind::Float:
      return DType::Float32;
    case TypeKind::Bool:
      return DType::Bool;
    default:
      return std::nullopt;
  }
}

inline int rank(DType d) {
  return d == DType::Bool ? 0 : d == DType::Int64 ? 1 : 2;
}

// PyTorch's promotion over d2s's dtypes: the highest category wins (a Python number
// counts by its category, see core/tensor/broadcast.h). Over types or pointers to types
// held elsewhere: a rule asking only for dtypes need not copy shapes.
inline const Type& held_type(const Type& t) {
  return t;
}
inline const Type& held_type(const Type* t) {
  return *t;
}
template <typename It>
std::optional<DType> promote(It begin, It end) {
  std::optional<DType> out;
  for (; begin != end; ++begin) {
    auto d = dtype_of(held_type(*begin));
    if (!d) return std::nullopt;
    if (!out || rank(*d) > rank(*out)) out = d;
  }
  return out;
}
inline std::optional<DType> promote(const std::vector<Type>& operands) {
  return promote(operands.begin(), operands.end());
}

// Reads a node's arguments: constants, the schema's defaults for omitted trailing
// arguments, and int lists as dims (sizes from aten::size keep their symbols).
class Args {
 public:
  explicit Args(const ir::Node& n) : n_(n) {
    const OpRegistry& reg = OpRegistry::builtin();
    // The node's overload, or the default one (empty overload name) when it names none:
    // the one the node resolved when made if that is it, else looked up by name.
    const OpDef* made = n.op();
    def_ = made && made->schema.overload == n.overload() ? made : reg.find(n.kind(), n.overload());
  }
  const OpDef* def() const { return def_; }
  size_t size() const { return n_.inputs().size(); }
  // The index of the schema argument called `name`, or npos.
  size_t index(const char* name) const {
    if (!def_) return std::string::npos;
    const auto& a = def_->schema.arguments;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].name == name) return i;
    }
    return std::string::npos;
  }
  const Type& type(size_t i) const {
    static const Type kAny;
    return i < n_.inputs().size() ? n_.input(i)->type() : kAny;
  }
  const Dims* shape(size_t i) const {
    const Type& t = type(i);
    return t.is_tensor() && t.shape ? &*t.shape : nullptr;
  }
  std::optional<IValue> value(size_t i) const {
    if (i < n_.inputs().size()) return constant_value(n_.input(i));
    if (def_ && i < def_->schema.arguments.size()) return def_->schema.arguments[i].default_value;
    return std::nullopt;
  }
  std::optional<int64_t> int_at(size_t i) const {
    auto v = value(i);
    if (!v || !(v->is_int() || v->is_bool())) return std::nullopt;
    return v->to_int();
  }
  std::optional<bool> bool_at(size_t i) const {
    auto v = value(i);
    if (!v || !v->is_bool()) return std::nullopt;
    return v->to_bool();
  }
  bool is_none(size_t i) const {
    auto v = value(i);
    return v && v->is_none();
  }
  // An int[] (or one int) argument as dims; nullopt when its length is unknown. With
  // `minus_one`, entries that are the constant -1 (view's "infer this one") are marked.
  std::optional<Dims> dims_at(size_t i, std::vector<bool>* minus_one = nullptr) const {
    if (i >= n_.inputs().size()) {
      auto v = value(i);
      if (!v) return std::nullopt;
      return dims_of_constant(*v, minus_one);
    }
    ir::Value* v = n_.input(i);
    if (ir::is_unchanged_list(*v) || v->node()->kind() == ir::kind::TupleConstruct) {
      Dims out;
      for (ir::Value* item : v->node()->inputs()) {
        auto c = constant_value(item);
        if (minus_one) minus_one->push_back(c && c->is_int() && c->to_int() == -1);
        out.push_back(dim_of_value(item));
      }
      return out;
    }
    if (auto c = constant_value(v)) return dims_of_constant(*c, minus_one);
    if (v->node()->kind() == "aten::size" && v->node()->inputs().size() == 1) {
      // x.shape passed on whole: x's dims.
      const Type& t = v->node()->input(0)->type();
      if (t.shape) return *t.shape;
    }
    return std::nullopt;
  }
  std::optional<DType> dtype_arg() const {
    size_t i = index("dtype");
    if (i == std::string::npos) return std::nullopt;
    auto code = int_at(i);
    DType d;
    if (code && dtype_from_scalar_type(*code, &d)) return d;
    return std::nullopt;
  }

  // The size a value stands for: a constant, or aten::size(t, k) of a known dim.
  static Dim dim_of_value(ir::Value* v) {
    if (auto c = constant_value(v); c && c->is_int() && c->to_int() >= 0) {
      return Dim::known(c->to_int());
    }
    ir::Node* p = v->node();
    if (p->kind() == "aten::size" && p->inputs().size() == 2) {
      auto k = constant_value(p->input(1));
      const Type& t = p->input(0)->type();
      if (k && k->is_int() && t.shape) {
        int64_t r = static_cast<int64_t>(t.shape->size());
        int64_t d = k->to_int() < 0 ? k->to_int() + r : k->to_int();
        if (d >= 0 && d < r) return (*t.shape)[static_cast<size_t>(d)];
      }
    }
    return Dim{};
  }

 private:
  static std::optional<Dims> dims_of_constant(const IValue& v, std::vector<bool>* minus_one) {
    ValueList items;
    if (v.is_int())
      items.push_back(v);
    else if (v.is_list() || v.is_tuple())
      items = v.items();
    else
      return std::nullopt;
    Dims out;
    for (const IValue& item : items) {
      if (minus_one) minus_one->push_back(item.is_int() && item.to_int() == -1);
      out.push_back(item.is_int() && item.to_int() >= 0 ? Dim::known(item.to_int()) : Dim{});
    }
    return out;
  }
  const ir::Node& n_;
  const OpDef* def_ = nullptr;
};

inline std::optional<size_t> wrap(int64_t d, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (d < 0) d += r;
  if (d < 0 || d >= r) return std::nullopt;
  return static_cast<size_t>(d);
}

inline bool set_type(ir::Value* v, const Type& t) {
  if (v->type() == t) return false;
  v->set_type(t);
  return true;
}

inline Type tensor(std::optional<DType> d, std::optional<Dims> shape) {
  return Type::tensor(d, std::move(shape));
}

// Self's (the first argument's) dims, when known.
inline std::optional<Dims> same_shape(const Args& a) {
  const Dims* s = a.shape(0);
  return s ? std::optional<Dims>(*s) : std::nullopt;
}

// A loss's dims by its `reduction` argument at `at`, read as the kernels read it
// (loss::reduction_of: 'none', 'mean', 'sum' or PyTorch's enum int): 0-d when reduced,
// `unreduced` for 'none'; unknown when the argument is not a constant or not valid (the
// kernel then fails at run time).
inline std::optional<Dims> loss_shape(const Args& a, size_t at, std::optional<Dims> unreduced) {
  const std::optional<IValue> r = a.value(at);
  if (!r) return std::nullopt;
  try {
    return loss::reduction_of(*r) == loss::Reduction::None ? unreduced : Dims{};
  } catch (const Error&) {
    return std::nullopt;
  }
}

// ---------------------------------------------------------------- symbolic numel

// A product of dims: a known factor times symbols; `unknown` when a dim is unknown.
struct Product {
  int64_t known = 1;
  std::multiset<std::string> symbols;
  bool unknown = false;
  void times(const Dim& d) {
    if (d.is_known())
      known *= d.size;
    else if (!d.symbol.empty())
      symbols.insert(d.symbol);
    else
      unknown = true;
  }
};

// numel(input) / product(others) as one dim, when it can be told exactly.
inline Dim quotient(const Product& all, const Product& part) {
  if (all.unknown || part.unknown || part.known == 0 || all.known % part.known != 0) return Dim{};
  std::multiset<std::string> rest = all.symbols;
  for (const std::string& s : part.symbols) {
    auto it = rest.find(s);
    if (it == rest.end()) return Dim{};
    rest.erase(it);
  }
  int64_t k = all.known / part.known;
  if (rest.empty()) return Dim::known(k);
  if (rest.size() == 1 && k == 1) return Dim::symbolic(*rest.begin());
  return Dim{};
}

// ---------------------------------------------------------------- the rule table

// A shape rule: the types of a node's first results (results past the vector keep
// theirs), or nullopt when the arguments do not tell. Rules are plain functions
// (captureless lambdas), one per behaviour: ops whose results differ get different
// rules, so no rule asks which op it serves by its name.
using Rule = std::optional<std::vector<Type>> (*)(const Args& a, const ir::Node& n);

// The rules by op kind, looked up by the node's interned kind (ir::Symbol). Each
// family file adds its ops' rules once (add_*_rules below); a kind given two rules
// is a programming error, reported at start-up.
class RuleTable {
 public:
  // Registers `rule` for each kind ("aten::conv2d", all overloads of it).
  void add(std::initializer_list<std::string_view> kinds, Rule rule);
  // The rule of a kind, or null.
  Rule find(ir::Symbol kind) const {
    const size_t i = kind.index();
    return i < by_symbol_.size() ? by_symbol_[i] : nullptr;
  }
  // Every kind with a rule, as registered ("aten::conv2d").
  const std::vector<std::string>& kinds() const { return kinds_; }

 private:
  std::vector<Rule> by_symbol_;  // indexed by ir::Symbol::index()
  std::vector<std::string> kinds_;
};

// One result's type as a rule's answer.
inline std::optional<std::vector<Type>> one(Type t) {
  return std::vector<Type>{std::move(t)};
}

// The family files' registrations (shape_rules_<family>.cpp), called once by
// rule_table() in shape_rules.cpp.
void add_elementwise_rules(RuleTable& t);  // shape_rules.cpp: broadcast, same-shape, reductions,
                                           // linear algebra, losses
void add_layout_rules(RuleTable& t);       // shape_rules_layout.cpp: views, reshapes, creation
void add_conv_pool_rules(RuleTable& t);    // shape_rules_conv.cpp: convolution, pooling,
                                           // hardtanh/relu6/elu/selu
void add_resize_rules(RuleTable& t);       // shape_rules_resize.cpp: conv_transpose, upsample,
                                           // pixel_shuffle, pad
void add_norm_rules(RuleTable& t);         // shape_rules_norm.cpp
void add_recurrent_rules(RuleTable& t);    // shape_rules_rnn.cpp: embedding, RNNs, cells
void add_index_sort_rules(RuleTable& t);   // shape_rules_index.cpp: indexing, sort, scans,
                                           // gather/scatter
void add_tensorops_rules(RuleTable& t);    // shape_rules_tensorops.cpp: list results
                                           // (nonzero, where(condition)), diagonal ops

// All the rules, built on first use.
const RuleTable& rule_table();

}  // namespace d2s::convert::shape_detail
