// OpRegistry: the table, overload resolution and argument binding.
#include "core/ops/op_registry.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string_view>

#include "core/base/error.h"
#include "core/ops/kernels.h"
#include "core/tensor/ivalue_dict.h"

namespace d2s {

namespace {

// "mm" for "aten::mm": PyTorch names ops without their namespace in messages.
std::string short_name(std::string_view base) {
  size_t colons = base.rfind("::");
  return std::string(colons == std::string_view::npos ? base : base.substr(colons + 2));
}

bool is_plain_int(const IValue& v) {
  return v.is_int();
}

std::string type_mismatch(const Argument& a, size_t position, const IValue& v) {
  std::string where = position ? " (position " + std::to_string(position) + ")" : "";
  return "argument '" + a.name + "'" + where + " must be " + a.type + ", not " + v.type_name();
}

// PyTorch's varargs convenience (`x.view(2, -1)`, `torch.zeros(2, 3)`): an int[]
// argument that is the only positional one besides a leading Tensor takes all
// trailing positional ints.
bool takes_int_varargs(const OpSchema& s, size_t n_positional_params) {
  if (n_positional_params == 0 || n_positional_params > 2) return false;
  const Argument& last = s.arguments[n_positional_params - 1];
  if (last.type != "int[]" && last.type != "int[]?") return false;
  return n_positional_params == 1 || s.arguments[0].type == "Tensor";
}

// Which arguments of one binding are filled: a few bits on the stack, so that trying
// a candidate overload allocates nothing for them.
class ArgumentMarks {
 public:
  explicit ArgumentMarks(size_t n) : large_(n > 64 ? n : 0, false) {}
  bool operator[](size_t i) const {
    return large_.empty() ? ((small_ >> i) & 1) != 0 : static_cast<bool>(large_[i]);
  }
  void set(size_t i) {
    if (large_.empty()) {
      small_ |= uint64_t{1} << i;
    } else {
      large_[i] = true;
    }
  }

 private:
  uint64_t small_ = 0;
  std::vector<bool> large_;
};

// Binds the arguments to one schema. On failure returns false and, when `why`
// is given, says what did not fit (the cheap path leaves it null).
bool bind_one(const OpSchema& s, const ValueList& pos,
              const std::vector<std::pair<std::string, IValue>>& kw, ValueList* out,
              std::string* why) {
  // The reason is built only when asked for: overload resolution tries candidates
  // with `why` null, and most candidates fail.
  auto reject = [&](auto&& reason) {
    if (why) *why = reason();
    return false;
  };
  const size_t n_args = s.arguments.size();
  size_t n_positional = 0;
  while (n_positional < n_args && !s.arguments[n_positional].kwarg_only) ++n_positional;
  // A tensor fits only a Tensor or Any argument (fit_argument): an overload taking a
  // number there is turned down before the bound list is built and the tensor copied
  // into it (`x * 0.5` tries mul.int and mul.float before mul.Tensor). Only while
  // choosing: with `why` asked for, the loops below find the first misfit in order.
  if (!why) {
    for (size_t i = 0; i < std::min(pos.size(), n_positional); ++i) {
      const ArgType kind = s.arguments[i].kind;
      if (pos[i].is_tensor() && kind != ArgType::Tensor && kind != ArgType::Any) return false;
    }
  }

  // clear + resize, not assign(n, IValue()): GCC 12 -O3 warns (falsely) that the
  // variant's temporary may be used uninitialized.
  out->clear();
  out->resize(n_args);
  ArgumentMarks filled(n_args);
  size_t n_direct = std::min(pos.size(), n_positional);
  if (pos.size() > n_positional) {
    if (takes_int_varargs(s, n_positional) && pos.size() > n_positional) {
      // All values from the int[] position on must be ints.
      size_t first = n_positional - 1;
      std::vector<int64_t> ints;
      for (size_t i = first; i < pos.size(); ++i) {
        if (!is_plain_int(pos[i])) {
          return reject([&] { return type_mismatch(s.arguments[first], first + 1, pos[i]); });
        }
        ints.push_back(pos[i].to_int());
      }
      (*out)[first] = IValue::int_list(ints);
      filled.set(first);
      n_direct = first;
    } else if (!s.varargs) {
      return reject([&] {
        return "expected at most " + std::to_string(n_positional) +
               " positional argument(s) but got " + std::to_string(pos.size());
      });
    }
  }
  for (size_t i = 0; i < n_direct; ++i) {
    (*out)[i] = pos[i];
    if (!fit_argument(s.arguments[i].kind, s.arguments[i].optional, (*out)[i])) {
      return reject([&] { return type_mismatch(s.arguments[i], i + 1, pos[i]); });
    }
    filled.set(i);
  }
  for (const auto& keyword : kw) {
    // Named, not a structured binding: the lazy messages below capture them (clang 14
    // does not let a lambda capture a structured binding).
    const std::string& name = keyword.first;
    const IValue& value = keyword.second;
    size_t i = 0;
    while (i < n_args && s.arguments[i].name != name) ++i;
    if (i == n_args) return reject([&] { return "unexpected keyword argument '" + name + "'"; });
    if (filled[i]) return reject([&] { return "got multiple values for argument '" + name + "'"; });
    (*out)[i] = value;
    if (!fit_argument(s.arguments[i].kind, s.arguments[i].optional, (*out)[i])) {
      return reject([&] { return type_mismatch(s.arguments[i], 0, value); });
    }
    filled.set(i);
  }
  for (size_t i = 0; i < n_args; ++i) {
    if (filled[i]) continue;
    if (!s.arguments[i].default_value) {
      return reject([&] { return "missing required argument '" + s.arguments[i].name + "'"; });
    }
    (*out)[i] = *s.arguments[i].default_value;
  }
  if (s.varargs) {
    for (size_t i = n_positional; i < pos.size(); ++i) out->push_back(pos[i]);
  }
  return true;
}

std::string describe_call(const ValueList& pos,
                          const std::vector<std::pair<std::string, IValue>>& kw) {
  std::string out = "(";
  for (size_t i = 0; i < pos.size(); ++i) out += (i ? ", " : "") + pos[i].type_name();
  for (size_t i = 0; i < kw.size(); ++i) {
    out += (i || !pos.empty() ? ", " : "") + kw[i].first + "=" + kw[i].second.type_name();
  }
  return out + ")";
}

}  // namespace

const std::vector<OpDef>& OpRegistry::overloads(std::string_view base_name) const {
  static const std::vector<OpDef> kNone;
  auto it = ops_.find(base_name);
  return it == ops_.end() ? kNone : it->second;
}

const OpDef* OpRegistry::find_qualified(std::string_view qualified_name) const {
  size_t colons = qualified_name.rfind("::");
  size_t dot = qualified_name.find('.', colons == std::string_view::npos ? 0 : colons);
  std::string_view base = qualified_name.substr(0, dot);
  std::string_view overload =
      dot == std::string_view::npos ? std::string_view() : qualified_name.substr(dot + 1);
  return find(base, overload);
}

const OpDef* OpRegistry::find(std::string_view base_name, std::string_view overload) const {
  for (const OpDef& def : overloads(base_name)) {
    if (def.schema.overload == overload) return &def;
  }
  return nullptr;
}

OpRegistry::Bound OpRegistry::bind(std::string_view base_name, const ValueList& positional,
                                   const std::vector<std::pair<std::string, IValue>>& keywords,
                                   const SourceRange& where) const {
  const std::vector<OpDef>& defs = overloads(base_name);
  if (defs.empty()) {
    throw Error("unknown operator '" + std::string(base_name) + "'", where);
  }
  Bound bound{nullptr, {}};
  for (const OpDef& def : defs) {
    if (bind_one(def.schema, positional, keywords, &bound.args, nullptr)) {
      bound.op = &def;
      return bound;
    }
  }
  // Nothing fits: bind again, this time collecting the reasons for the message.
  std::string name = short_name(base_name);
  std::string hint = defs.size() == 1 ? "the schema is:" : "candidates:";
  std::string first_reason;
  for (const OpDef& def : defs) {
    std::string why;
    bind_one(def.schema, positional, keywords, &bound.args, &why);
    if (first_reason.empty()) first_reason = why;
    hint += "\n  " + def.schema.str();
    if (defs.size() > 1) hint += "\n      (" + why + ")";
  }
  if (defs.size() == 1) throw Error(name + "(): " + first_reason, where, hint);
  throw Error(name + "() received an invalid combination of arguments - got " +
                  describe_call(positional, keywords) + ", which no overload accepts",
              where, hint);
}

std::vector<std::string> OpTags::names() const {
  static const std::pair<OpTag, const char*> kNames[] = {
      {OpTag::Pointwise, "pointwise"},
      {OpTag::Reduction, "reduction"},
      {OpTag::FloatPromoting, "float-promoting"},
      {OpTag::Random, "random"},
      {OpTag::Nondeterministic, "nondeterministic"},
      {OpTag::NoDerivative, "no-derivative"},
      {OpTag::NoShapeRule, "no-shape-rule"},
      {OpTag::NoOnnx, "no-onnx"},
  };
  std::vector<std::string> out;
  for (const auto& [tag, name] : kNames) {
    if (has(tag)) out.emplace_back(name);
  }
  return out;
}

void OpRegistry::add(std::string_view schema, Kernel kernel, OpTags tags) {
  OpDef def{OpSchema::parse(schema), std::move(kernel), tags, {}, {}, false, false};
  def.mutates = def.schema.mutates();
  def.is_view = def.schema.returns_view_of_self();
  std::vector<OpDef>& defs = ops_[def.schema.name];
  for (const OpDef& d : defs) {
    if (d.schema.overload == def.schema.overload) {
      throw Error("operator " + def.schema.qualified_name() + " registered twice");
    }
  }
  defs.push_back(std::move(def));
}

void OpRegistry::set_derivative(std::string_view qualified_name, Derivative derivative,
                                SavedData saved) {
  // The registry owns its OpDefs; find_qualified hands out const pointers to them.
  OpDef* def = const_cast<OpDef*>(find_qualified(qualified_name));
  if (!def) throw Error("derivative for unknown operator " + std::string(qualified_name));
  if (def->derivative) throw Error("derivative of " + std::string(qualified_name) + " set twice");
  def->derivative = std::move(derivative);
  def->saved = saved;
}

std::vector<std::string> OpRegistry::base_names() const {
  std::vector<std::string> names;
  names.reserve(ops_.size());
  for (const auto& [name, defs] : ops_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

bool fit_argument(ArgType type, bool optional, IValue& v) {
  if (optional && v.is_none()) return true;
  switch (type) {
    case ArgType::Tensor:
      return v.is_tensor() || v.is_number();
    case ArgType::Scalar:
      return v.is_number();
    case ArgType::Int:
      if (v.is_bool()) v = IValue(static_cast<int64_t>(v.to_bool()));
      return v.is_int();
    case ArgType::Float:
      if (!v.is_number()) return false;
      if (!v.is_double()) v = IValue(v.to_double());
      return true;
    case ArgType::Bool:
      return v.is_bool();
    case ArgType::Str:
      return v.is_string();
    case ArgType::Any:
      return true;
    case ArgType::Dict:
      return as_graph_dict(v) != nullptr;
    case ArgType::ScalarType: {
      DType d;
      if (v.is_int()) return dtype_from_scalar_type(v.to_int(), &d);
      if (v.is_string() && parse_dtype(v.to_string(), &d)) {
        v = IValue(dtype_scalar_type(d));
        return true;
      }
      return false;
    }
    case ArgType::IntList: {
      if (v.is_int()) {
        v = IValue::int_list({v.to_int()});
        return true;
      }
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_int()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    }
    case ArgType::FloatList: {
      if (!v.is_list() && !v.is_tuple()) return false;
      ValueList items;
      for (const IValue& item : v.items()) {
        if (!item.is_number()) return false;
        items.push_back(IValue(item.to_double()));
      }
      v = IValue::list(std::move(items));
      return true;
    }
    case ArgType::StrList:
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_string()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    case ArgType::TensorList:
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_tensor()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    case ArgType::OptionalTensorList:
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_tensor() && !item.is_none()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    case ArgType::AnyList:
      return v.is_list() || v.is_tuple();
    case ArgType::Unknown:
      return false;
  }
  return false;
}

}  // namespace d2s
