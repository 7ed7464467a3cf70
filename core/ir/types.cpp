#include "core/ir/types.h"

#include <cctype>
#include <charconv>

#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/ivalue_dict.h"

namespace d2s::ir {

Type Type::tensor(std::optional<DType> dtype, std::optional<std::vector<Dim>> shape) {
  Type t;
  t.kind = TypeKind::Tensor;
  t.dtype = dtype;
  t.shape = std::move(shape);
  return t;
}

Type Type::tensor_of(DType dtype, const Shape& shape) {
  std::vector<Dim> dims;
  dims.reserve(shape.size());
  for (int64_t n : shape) dims.push_back(Dim::known(n));
  return tensor(dtype, std::move(dims));
}

Type Type::tuple(std::vector<Type> elements) {
  Type t;
  t.kind = TypeKind::Tuple;
  t.elements = std::move(elements);
  return t;
}

Type Type::list(Type element) {
  Type t;
  t.kind = TypeKind::List;
  t.elements.push_back(std::move(element));
  return t;
}

Type Type::optional(Type element) {
  Type t;
  t.kind = TypeKind::Optional;
  t.elements.push_back(std::move(element));
  return t;
}

Type Type::dict(Type key, Type value) {
  Type t;
  t.kind = TypeKind::Dict;
  t.elements.push_back(std::move(key));
  t.elements.push_back(std::move(value));
  return t;
}

bool Type::operator==(const Type& o) const {
  return kind == o.kind && dtype == o.dtype && shape == o.shape && elements == o.elements;
}

namespace {

// The tensor spellings. `Tensor` is float32, the model language's default; a tensor
// whose dtype is not known is `AnyTensor`, so that str() stays one-to-one and an IR
// file round-trips types exactly.
const char* tensor_prefix(const std::optional<DType>& dtype) {
  if (!dtype) return "AnyTensor";
  switch (*dtype) {
    case DType::Float32:
      return "Tensor";
    case DType::Int64:
      return "Long";
    case DType::Bool:
      return "Bool";
  }
  return "AnyTensor";
}

std::string dim_str(const Dim& d) {
  if (!d.symbol.empty()) return d.symbol;
  if (d.size >= 0) return std::to_string(d.size);
  return "*";
}

}  // namespace

std::string Type::str() const {
  switch (kind) {
    case TypeKind::Any:
      return "Any";
    case TypeKind::Int:
      return "int";
    case TypeKind::Float:
      return "float";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::None:
      return "NoneType";
    case TypeKind::Str:
      return "str";
    case TypeKind::Tensor: {
      std::string out = tensor_prefix(dtype);
      if (shape) {
        out += '[';
        for (size_t i = 0; i < shape->size(); ++i) {
          if (i) out += ", ";
          out += dim_str((*shape)[i]);
        }
        out += ']';
      }
      return out;
    }
    case TypeKind::Tuple: {
      std::string out = "(";
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i) out += ", ";
        out += elements[i].str();
      }
      return out + ")";
    }
    case TypeKind::List: {
      std::string elem = elements.empty() ? "Any" : elements[0].str();
      // `Tensor[]` already means a 0-d tensor, so lists of tensors are spelled List[...].
      if (!elements.empty() && elements[0].is_tensor()) return "List[" + elem + "]";
      return elem + "[]";
    }
    case TypeKind::Optional:
      return (elements.empty() ? std::string("Any") : elements[0].str()) + "?";
    case TypeKind::Dict:
      // TorchScript's spelling: Dict(str, Tensor).
      return "Dict(" + (elements.size() > 0 ? elements[0].str() : std::string("Any")) + ", " +
             (elements.size() > 1 ? elements[1].str() : std::string("Any")) + ")";
  }
  return "Any";
}

namespace {

// A small recursive-descent reader for str()'s output. Nesting is bounded so that
// a hostile type string in an IR file cannot exhaust the stack.
class TypeReader {
 public:
  explicit TypeReader(const std::string& text) : s_(text) {}

  std::optional<Type> read_all() {
    auto t = read(0);
    skip_ws();
    if (!t || pos_ != s_.size()) return std::nullopt;
    return t;
  }

 private:
  static constexpr int kMaxDepth = 32;

  void skip_ws() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool eat_word(std::string_view w) {
    skip_ws();
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    size_t end = pos_ + w.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_'))
      return false;
    pos_ = end;
    return true;
  }
  std::string identifier() {
    skip_ws();
    size_t b = pos_;
    if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      ++pos_;
    else
      return {};
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      ++pos_;
    return s_.substr(b, pos_ - b);
  }

  std::optional<Dim> read_dim() {
    skip_ws();
    if (pos_ >= s_.size()) return std::nullopt;
    char c = s_[pos_];
    if (c == '*') {
      ++pos_;
      return Dim{};
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t n = 0;
      auto [p, ec] = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), n);
      if (ec != std::errc()) return std::nullopt;
      pos_ = static_cast<size_t>(p - s_.data());
      return Dim::known(n);
    }
    std::string sym = identifier();
    if (sym.empty()) return std::nullopt;
    return Dim::symbolic(sym);
  }

  std::optional<Type> read_tensor(std::optional<DType> dtype) {
    Type t = Type::tensor(dtype);
    skip_ws();
    if (!eat('[')) return t;
    std::vector<Dim> dims;
    if (!eat(']')) {
      do {
        auto d = read_dim();
        if (!d) return std::nullopt;
        dims.push_back(*d);
      } while (eat(','));
      if (!eat(']')) return std::nullopt;
    }
    t.shape = std::move(dims);
    return t;
  }

  std::optional<Type> read(int depth) {
    if (depth > kMaxDepth) return std::nullopt;
    auto base = read_base(depth);
    if (!base) return std::nullopt;
    // Tensor spellings already consumed their own brackets; `[]` after anything
    // else makes a list.
    for (;;) {
      size_t save = pos_;
      if (base->kind != TypeKind::Optional && eat('?')) {
        base = Type::optional(*base);
      } else if (!base->is_tensor() && eat('[') && eat(']')) {
        base = Type::list(*base);
      } else {
        pos_ = save;
        break;
      }
    }
    return base;
  }

  std::optional<Type> read_base(int depth) {
    skip_ws();
    if (eat('(')) {
      std::vector<Type> elems;
      if (!eat(')')) {
        do {
          auto e = read(depth + 1);
          if (!e) return std::nullopt;
          elems.push_back(std::move(*e));
        } while (eat(','));
        if (!eat(')')) return std::nullopt;
      }
      return Type::tuple(std::move(elems));
    }
    if (eat_word("List")) {
      if (!eat('[')) return std::nullopt;
      auto e = read(depth + 1);
      if (!e || !eat(']')) return std::nullopt;
      return Type::list(std::move(*e));
    }
    if (eat_word("Dict")) {
      if (!eat('(')) return std::nullopt;
      auto k = read(depth + 1);
      if (!k || !eat(',')) return std::nullopt;
      auto v = read(depth + 1);
      if (!v || !eat(')')) return std::nullopt;
      return Type::dict(std::move(*k), std::move(*v));
    }
    if (eat_word("AnyTensor")) return read_tensor(std::nullopt);
    if (eat_word("Tensor")) return read_tensor(DType::Float32);
    if (eat_word("Long")) return read_tensor(DType::Int64);
    if (eat_word("Bool")) return read_tensor(DType::Bool);
    if (eat_word("Any")) return Type::any();
    if (eat_word("int")) return Type::of_int();
    if (eat_word("float")) return Type::of_float();
    if (eat_word("bool")) return Type::of_bool();
    if (eat_word("NoneType")) return Type::none();
    if (eat_word("str")) return Type::of_str();
    return std::nullopt;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<Type> Type::parse(const std::string& text) {
  return TypeReader(text).read_all();
}

Type type_of(const IValue& v) {
  if (v.is_none()) return Type::none();
  if (v.is_bool()) return Type::of_bool();
  if (v.is_int()) return Type::of_int();
  if (v.is_double()) return Type::of_float();
  if (v.is_string()) return Type::of_str();
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    if (!t.defined()) return Type::tensor();
    return Type::tensor_of(t.dtype(), t.shape());
  }
  if (v.is_tuple()) {
    std::vector<Type> elems;
    for (const IValue& item : v.tuple_items()) elems.push_back(type_of(item));
    return Type::tuple(std::move(elems));
  }
  if (v.is_list()) {
    // A list's element type is its items' common type; Any when they differ.
    const ValueList& items = v.list_items();
    if (items.empty()) return Type::list(Type::any());
    Type elem = type_of(items[0]);
    for (size_t i = 1; i < items.size(); ++i) {
      if (!(type_of(items[i]) == elem)) return Type::list(Type::any());
    }
    return Type::list(std::move(elem));
  }
  if (const GraphDict* d = as_graph_dict(v)) {
    // Like a list: the common key and value types, Any where they differ.
    const auto& items = d->entries();
    if (items.empty()) return Type::dict(Type::any(), Type::any());
    Type key = type_of(items[0].first), value = type_of(items[0].second);
    for (size_t i = 1; i < items.size(); ++i) {
      if (!(type_of(items[i].first) == key)) key = Type::any();
      if (!(type_of(items[i].second) == value)) value = Type::any();
    }
    return Type::dict(std::move(key), std::move(value));
  }
  return Type::any();
}

bool types_compatible(const Type& a, const Type& b) {
  if (a.kind == TypeKind::Any || b.kind == TypeKind::Any) return true;
  // An Optional holds None or its element's values.
  if (a.kind == TypeKind::Optional && b.kind != TypeKind::Optional) {
    return b.kind == TypeKind::None || a.elements.empty() || types_compatible(a.elements[0], b);
  }
  if (b.kind == TypeKind::Optional && a.kind != TypeKind::Optional) return types_compatible(b, a);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case TypeKind::Tensor:
      if (a.dtype && b.dtype && *a.dtype != *b.dtype) return false;
      if (a.shape && b.shape) {
        if (a.shape->size() != b.shape->size()) return false;
        for (size_t i = 0; i < a.shape->size(); ++i) {
          const Dim& x = (*a.shape)[i];
          const Dim& y = (*b.shape)[i];
          if (x.is_known() && y.is_known() && x.size != y.size) return false;
        }
      }
      return true;
    case TypeKind::Tuple:
      if (a.elements.size() != b.elements.size()) return false;
      for (size_t i = 0; i < a.elements.size(); ++i) {
        if (!types_compatible(a.elements[i], b.elements[i])) return false;
      }
      return true;
    case TypeKind::List:
    case TypeKind::Optional:
      if (a.elements.empty() || b.elements.empty()) return true;
      return types_compatible(a.elements[0], b.elements[0]);
    case TypeKind::Dict:
      for (size_t i = 0; i < a.elements.size() && i < b.elements.size(); ++i) {
        if (!types_compatible(a.elements[i], b.elements[i])) return false;
      }
      return true;
    default:
      return true;
  }
}

}  // namespace d2s::ir
