#include "convert/schema_match.h"

#include "core/base/error.h"
#include "core/ir/ir.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

bool is_number(const Type& t) {
  return t.kind == TypeKind::Int || t.kind == TypeKind::Float || t.kind == TypeKind::Bool;
}

// The element types of a tuple, or the one element type of a list (repeated lazily by
// the callers through `all_items`).
template <typename Pred>
bool all_items(const Type& t, Pred pred) {
  if (t.kind == TypeKind::Tuple) {
    for (const Type& e : t.elements) {
      if (e.kind != TypeKind::Any && !pred(e)) return false;
    }
    return true;
  }
  if (t.kind == TypeKind::List) {
    return t.elements.empty() || t.elements[0].kind == TypeKind::Any || pred(t.elements[0]);
  }
  return false;
}

std::string type_name(const Type& t) {
  switch (t.kind) {
    case TypeKind::Tensor:
      return "Tensor";
    case TypeKind::Tuple:
      return "tuple";
    case TypeKind::List:
      return "list";
    default:
      return t.str();
  }
}

// PyTorch's varargs convenience, as OpRegistry::bind applies it: an int[] argument
// that is the only positional one besides a leading Tensor takes all trailing ints.
bool takes_int_varargs(const OpSchema& s, size_t n_positional_params) {
  if (n_positional_params == 0 || n_positional_params > 2) return false;
  const Argument& last = s.arguments[n_positional_params - 1];
  if (last.type != "int[]" && last.type != "int[]?") return false;
  return n_positional_params == 1 || s.arguments[0].type == "Tensor";
}

}  // namespace

namespace {

// type_accepts on a string_view, compared with string_view literals: a mismatch is a
// length test (overload resolution asks this of every argument of every candidate).
bool accepts(std::string_view schema_type, const Type& t) {
  using namespace std::string_view_literals;
  if (t.kind == TypeKind::Any) return true;
  if (!schema_type.empty() && schema_type.back() == '?') {
    if (t.kind == TypeKind::None) return true;
    return accepts(schema_type.substr(0, schema_type.size() - 1), t);
  }
  if (schema_type == "Any"sv) return true;
  if (schema_type == "Tensor"sv) return t.is_tensor() || is_number(t);
  if (schema_type == "Scalar"sv) return is_number(t);
  if (schema_type == "int"sv) return t.kind == TypeKind::Int || t.kind == TypeKind::Bool;
  if (schema_type == "float"sv) return is_number(t);
  if (schema_type == "bool"sv) return t.kind == TypeKind::Bool;
  if (schema_type == "str"sv) return t.kind == TypeKind::Str;
  // A dtype is held as its ScalarType code (an int), as in TorchScript graphs.
  if (schema_type == "ScalarType"sv) return t.kind == TypeKind::Int || t.kind == TypeKind::Str;
  if (schema_type == "int[]"sv) {
    if (t.kind == TypeKind::Int) return true;
    return all_items(t, [](const Type& e) { return e.kind == TypeKind::Int; });
  }
  if (schema_type == "float[]"sv) return all_items(t, is_number);
  if (schema_type == "str[]"sv) {
    return all_items(t, [](const Type& e) { return e.kind == TypeKind::Str; });
  }
  if (schema_type == "Tensor[]"sv) return all_items(t, [](const Type& e) { return e.is_tensor(); });
  if (schema_type == "Tensor?[]"sv) {
    return all_items(t, [](const Type& e) { return e.is_tensor() || e.kind == TypeKind::None; });
  }
  if (schema_type == "Any[]"sv) return t.kind == TypeKind::Tuple || t.kind == TypeKind::List;
  if (schema_type == "Dict"sv) return t.kind == TypeKind::Dict;
  return false;
}

}  // namespace

bool type_accepts(const std::string& schema_type, const Type& t) {
  return accepts(schema_type, t);
}

std::optional<SchemaMatch> match_schema(
    const OpSchema& s, const std::vector<ArgInfo>& positional,
    const std::vector<std::pair<std::string, ArgInfo>>& keywords, std::string* why) {
  // The reason is built only when asked for: overload resolution tries candidates
  // with `why` null, and most of them are rejected.
  auto reject = [&](auto&& reason) -> std::optional<SchemaMatch> {
    if (why) *why = reason();
    return std::nullopt;
  };
  auto mismatch = [&](const Argument& a, const Type& t) {
    return reject(
        [&] { return "argument '" + a.name + "' must be " + a.type + ", not " + type_name(t); });
  };
  const size_t n_args = s.arguments.size();
  size_t n_positional = 0;
  while (n_positional < n_args && !s.arguments[n_positional].kwarg_only) ++n_positional;

  SchemaMatch m;
  m.slots.resize(n_args);
  std::vector<bool> filled(n_args, false);
  for (size_t i = 0; i < n_args; ++i) m.slots[i].type = &s.arguments[i].type;

  size_t n_direct = std::min(positional.size(), n_positional);
  if (positional.size() > n_positional) {
    if (takes_int_varargs(s, n_positional)) {
      size_t first = n_positional - 1;
      auto& slot = m.slots[first];
      slot.kind = SchemaMatch::Slot::Kind::PackedInts;
      for (size_t i = first; i < positional.size(); ++i) {
        const Type& t = *positional[i].type;
        if (t.kind != TypeKind::Int && t.kind != TypeKind::Any) {
          return mismatch(s.arguments[first], t);
        }
        slot.packed.push_back(i);
      }
      filled[first] = true;
      n_direct = first;
    } else if (!s.varargs) {
      return reject([&] {
        return "expected at most " + std::to_string(n_positional) +
               " positional argument(s) but got " + std::to_string(positional.size());
      });
    }
  }
  for (size_t i = 0; i < n_direct; ++i) {
    if (!accepts(s.arguments[i].type, *positional[i].type)) {
      return mismatch(s.arguments[i], *positional[i].type);
    }
    m.slots[i].kind = SchemaMatch::Slot::Kind::Given;
    m.slots[i].given = i;
    filled[i] = true;
  }
  for (size_t k = 0; k < keywords.size(); ++k) {
    const auto& [name, info] = keywords[k];
    size_t i = 0;
    while (i < n_args && s.arguments[i].name != name) ++i;
    const std::string& key = name;  // named: a lambda cannot capture a structured binding
    if (i == n_args) return reject([&] { return "unexpected keyword argument '" + key + "'"; });
    if (filled[i]) {
      return reject([&] { return "got multiple values for argument '" + key + "'"; });
    }
    if (!accepts(s.arguments[i].type, *info.type)) return mismatch(s.arguments[i], *info.type);
    m.slots[i].kind = SchemaMatch::Slot::Kind::Given;
    m.slots[i].given = positional.size() + k;
    filled[i] = true;
  }
  for (size_t i = 0; i < n_args; ++i) {
    if (filled[i]) continue;
    if (!s.arguments[i].default_value) {
      return reject([&] { return "missing required argument '" + s.arguments[i].name + "'"; });
    }
    m.slots[i].kind = SchemaMatch::Slot::Kind::Default;
    m.slots[i].default_value = *s.arguments[i].default_value;
  }
  if (s.varargs) {
    for (size_t i = n_positional; i < positional.size(); ++i) m.varargs.push_back(i);
  }
  return m;
}

SchemaMatch match_op(std::string_view base_name, const std::vector<ArgInfo>& positional,
                     const std::vector<std::pair<std::string, ArgInfo>>& keywords,
                     const SourceRange& range) {
  const auto& defs = OpRegistry::builtin().overloads(base_name);
  if (defs.empty()) throw Error("unknown operator '" + std::string(base_name) + "'", range);
  for (const OpDef& def : defs) {
    if (auto m = match_schema(def.schema, positional, keywords)) {
      m->op = &def;
      return std::move(*m);
    }
  }
  const std::string name(base_name);
  std::string short_name =
      name.substr(name.rfind("::") == std::string::npos ? 0 : name.rfind("::") + 2);
  // Nothing fits: match again to collect the reasons, as OpRegistry::bind reports them.
  std::string got = "(";
  for (size_t i = 0; i < positional.size(); ++i)
    got += (i ? ", " : "") + type_name(*positional[i].type);
  for (size_t i = 0; i < keywords.size(); ++i) {
    got += (i || !positional.empty() ? ", " : "") + keywords[i].first + "=" +
           type_name(*keywords[i].second.type);
  }
  got += ")";
  std::string hint = defs.size() == 1 ? "the schema is:" : "candidates:";
  std::string first_reason;
  for (const OpDef& def : defs) {
    std::string why;
    match_schema(def.schema, positional, keywords, &why);
    if (first_reason.empty()) first_reason = why;
    hint += "\n  " + def.schema.str();
    if (defs.size() > 1) hint += "\n      (" + why + ")";
  }
  if (defs.size() == 1) throw Error(short_name + "(): " + first_reason, range, hint);
  throw Error(short_name + "() received an invalid combination of argument types - got " + got +
                  ", which no overload accepts",
              range, hint);
}

Type type_of_schema_type(const std::string& st) {
  if (!st.empty() && st.back() == '?') return type_of_schema_type(st.substr(0, st.size() - 1));
  if (st == "Tensor") return Type::tensor();
  if (st == "int" || st == "ScalarType") return Type::of_int();
  if (st == "float") return Type::of_float();
  if (st == "bool") return Type::of_bool();
  if (st == "str") return Type::of_str();
  if (st == "None" || st == "NoneType") return Type::none();
  if (st == "int[]") return Type::list(Type::of_int());
  if (st == "float[]") return Type::list(Type::of_float());
  if (st == "bool[]") return Type::list(Type::of_bool());
  if (st == "str[]") return Type::list(Type::of_str());
  if (st == "Tensor[]") return Type::list(Type::tensor());
  if (st == "Tensor?[]") return Type::list(Type::any());
  if (st == "Any[]") return Type::list(Type::any());
  if (st == "Dict") return Type::dict(Type::any(), Type::any());
  return Type::any();
}

std::vector<Type> result_types(const OpDef& op, const std::vector<ir::Value*>& inputs) {
  std::vector<Type> out;
  out.reserve(op.schema.returns.size());
  for (const std::string& r : op.schema.returns) {
    if (r != "Scalar") {
      out.push_back(type_of_schema_type(r));
      continue;
    }
    // item(): the Python number of the tensor's dtype (float when unknown).
    if (!inputs.empty() && inputs[0]->type().is_tensor()) {
      const Type& t = inputs[0]->type();
      TypeKind k = TypeKind::Float;
      if (t.dtype == DType::Int64) k = TypeKind::Int;
      if (t.dtype == DType::Bool) k = TypeKind::Bool;
      out.push_back(Type{k, {}, {}, {}});
      continue;
    }
    // Python arithmetic on numbers: float if any operand is a float, else int (a
    // static approximation: max(3, 2.5) is an int at run time).
    bool any_float = false, any_unknown = false;
    for (const ir::Value* v : inputs) {
      if (v->type().kind == TypeKind::Float) any_float = true;
      if (v->type().kind == TypeKind::Any) any_unknown = true;
    }
    if (any_float)
      out.push_back(Type::of_float());
    else if (any_unknown)
      out.push_back(Type::any());
    else
      out.push_back(Type::of_int());
  }
  return out;
}

}  // namespace d2s::convert
