// OpSchema: parsing and printing TorchScript-style schema strings.
//
//   schema   := name ['.' overload] '(' [arg {',' arg}] ')' '->' returns
//   arg      := '*' | '...' | type name ['=' default]
//   type     := base [alias] ['[' [N] ']'] ['?']   base: Tensor Scalar int float bool
//                                                        str Any ScalarType Dict
//   alias    := '(' name ['!'] ')'      TorchScript's alias annotation: `Tensor(a!)`
//   returns  := type | '(' [type [name] {',' type [name]}] ')'
//   default  := None | True | False | number | 'text' | "text" | '[' [default {','}] ']'
//
// `int[1]` (TorchScript's "an int is accepted as a one-element list") is stored
// as `int[]`: in d2s every int[] argument accepts a single int.
#include <cctype>
#include <cstdlib>

#include "core/base/error.h"
#include "core/ops/op_registry.h"

namespace d2s {

namespace {

ArgType arg_type(const std::string& t) {
  if (t == "Tensor") return ArgType::Tensor;
  if (t == "Scalar") return ArgType::Scalar;
  if (t == "int") return ArgType::Int;
  if (t == "float") return ArgType::Float;
  if (t == "bool") return ArgType::Bool;
  if (t == "str") return ArgType::Str;
  if (t == "Any") return ArgType::Any;
  if (t == "ScalarType") return ArgType::ScalarType;
  if (t == "int[]") return ArgType::IntList;
  if (t == "float[]") return ArgType::FloatList;
  if (t == "str[]") return ArgType::StrList;
  if (t == "Tensor[]") return ArgType::TensorList;
  if (t == "Tensor?[]") return ArgType::OptionalTensorList;
  if (t == "Any[]") return ArgType::AnyList;
  if (t == "Dict") return ArgType::Dict;
  return ArgType::Unknown;
}

class SchemaParser {
 public:
  explicit SchemaParser(std::string_view text) : text_(text) {}

  OpSchema parse() {
    OpSchema s;
    std::string full = name();
    size_t dot = full.find('.');
    s.name = full.substr(0, dot);
    if (dot != std::string::npos) s.overload = full.substr(dot + 1);
    expect('(');
    bool kwarg_only = false;
    if (!accept(')')) {
      do {
        if (accept('*')) {
          kwarg_only = true;
          continue;
        }
        if (accept_word("...")) {
          s.varargs = true;
          continue;
        }
        if (s.varargs) fail("'...' must come last");
        Argument a;
        a.type = type(&a.alias);
        a.optional = !a.type.empty() && a.type.back() == '?';
        a.kind = arg_type(a.optional ? a.type.substr(0, a.type.size() - 1) : a.type);
        a.name = name();
        a.kwarg_only = kwarg_only;
        if (accept('=')) a.default_value = default_for(a.type, value());
        s.arguments.push_back(std::move(a));
      } while (accept(','));
      expect(')');
    }
    skip_space();
    if (!accept_word("->")) fail("expected '->'");
    if (accept('(')) {
      if (!accept(')')) {
        do {
          AliasInfo alias;
          s.returns.push_back(type(&alias));
          s.return_aliases.push_back(std::move(alias));
          skip_space();
          if (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_]))) {
            name();  // a return may be named: (Tensor values, Tensor indices)
          }
        } while (accept(','));
        expect(')');
      }
    } else {
      AliasInfo alias;
      s.returns.push_back(type(&alias));
      s.return_aliases.push_back(std::move(alias));
    }
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the return type");
    return s;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw Error("malformed operator schema '" + std::string(text_) + "': " + what + " at offset " +
                std::to_string(pos_));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool accept_word(std::string_view w) {
    skip_space();
    if (text_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }

  // Identifiers, possibly qualified: aten::max.dim, __and__, self.
  std::string name() {
    skip_space();
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':') {
        ++pos_;
      } else {
        break;
      }
    }
    if (start == pos_) fail("expected a name");
    return std::string(text_.substr(start, pos_ - start));
  }

  std::string type(AliasInfo* alias) {
    std::string t = name();
    // Dict: the graph's runtime dict (core/ops/kernels_dict.cpp), keys and values any type.
    static const char* const kBases[] = {"Tensor", "Scalar", "int",        "float", "bool",
                                         "str",    "Any",    "ScalarType", "Dict"};
    bool known = false;
    for (const char* b : kBases) known = known || t == b;
    if (!known) fail("unknown type '" + t + "'");
    if (accept('(')) {
      // Tensors, the lists of kernels_list.cpp (`Any(a!)[] self`: the list written) and
      // the dicts of kernels_dict.cpp (`Dict(a!) self`).
      if (t != "Tensor" && t != "Any" && t != "Dict")
        fail("only a Tensor, Any or Dict may carry an alias annotation");
      alias->set = name();
      alias->is_write = accept('!');
      expect(')');
    }
    // `Tensor?[]`: a list whose items may be None (aten::index's indices).
    if (t == "Tensor" && text_.substr(pos_, 3) == "?[]") {
      pos_ += 3;
      t = "Tensor?[]";
      if (accept('?')) t += "?";
      return t;
    }
    if (accept('[')) {
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      expect(']');
      t += "[]";
    }
    if (accept('?')) t += "?";
    return t;
  }

  IValue value() {
    skip_space();
    if (accept('[')) {
      ValueList items;
      if (!accept(']')) {
        do items.push_back(value());
        while (accept(','));
        expect(']');
      }
      return IValue::list(std::move(items));
    }
    if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
      char q = text_[pos_++];
      size_t end = text_.find(q, pos_);
      if (end == std::string_view::npos) fail("unterminated string");
      std::string s(text_.substr(pos_, end - pos_));
      pos_ = end + 1;
      return IValue(std::move(s));
    }
    if (accept_word("None")) return IValue();
    if (accept_word("True")) return IValue(true);
    if (accept_word("False")) return IValue(false);
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
            text_[pos_] == '-' || text_[pos_] == '+')) {
      ++pos_;
    }
    std::string num(text_.substr(start, pos_ - start));
    if (num.empty()) fail("expected a default value");
    char* end = nullptr;
    if (num.find_first_of(".eEn") == std::string::npos) {
      long long v = std::strtoll(num.c_str(), &end, 10);
      if (*end == '\0') return IValue(static_cast<int64_t>(v));
    }
    double d = std::strtod(num.c_str(), &end);  // also "inf"
    if (*end != '\0') fail("bad default value '" + num + "'");
    return IValue(d);
  }

  // Defaults are stored as the kernel will receive them (2 for `float p=2` is 2.0).
  static IValue default_for(const std::string& type, IValue v) {
    if ((type == "float" || type == "float?") && v.is_int()) return IValue(v.to_double());
    return v;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

OpSchema OpSchema::parse(std::string_view text) {
  return SchemaParser(text).parse();
}

std::string OpSchema::qualified_name() const {
  return overload.empty() ? name : name + "." + overload;
}

bool OpSchema::mutates() const {
  for (const Argument& a : arguments) {
    if (a.alias.is_write) return true;
  }
  return false;
}

bool OpSchema::returns_view_of_self() const {
  if (arguments.empty() || return_aliases.empty()) return false;
  const AliasInfo& self = arguments[0].alias;
  return !self.empty() && !self.is_write && return_aliases[0].set == self.set &&
         !return_aliases[0].is_write;
}

std::vector<size_t> OpSchema::written_arguments() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].alias.is_write) out.push_back(i);
  }
  return out;
}

namespace {

std::string with_alias(const std::string& type, const AliasInfo& alias) {
  if (alias.empty()) return type;
  // The annotation sits on the base: Tensor(a!)[] and Tensor(a)? as TorchScript.
  size_t base_end = type.find_first_of("[?");
  if (base_end == std::string::npos) base_end = type.size();
  return type.substr(0, base_end) + "(" + alias.set + (alias.is_write ? "!" : "") + ")" +
         type.substr(base_end);
}

}  // namespace

std::string OpSchema::str() const {
  std::string out = qualified_name() + "(";
  bool star = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const Argument& a = arguments[i];
    if (i) out += ", ";
    if (a.kwarg_only && !star) {
      out += "*, ";
      star = true;
    }
    out += with_alias(a.type, a.alias) + " " + a.name;
    if (a.default_value) out += "=" + a.default_value->repr();
  }
  if (varargs) out += arguments.empty() ? "..." : ", ...";
  out += ") -> ";
  auto ret = [this](size_t i) {
    return i < return_aliases.size() ? with_alias(returns[i], return_aliases[i]) : returns[i];
  };
  if (returns.size() == 1) return out + ret(0);
  out += "(";
  for (size_t i = 0; i < returns.size(); ++i) out += (i ? ", " : "") + ret(i);
  return out + ")";
}

}  // namespace d2s
