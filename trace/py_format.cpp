// Text: str() and repr() of every value, f-string format specs (Python's format
// mini-language for numbers and strings), source text of ranges, errors and the
// "did you mean" suggestions (Python's own edit-distance rule).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "trace/interp.h"
#include "trace/native_value.h"
#include "trace/py_dict.h"
#include "trace/py_typeinfo.h"

namespace d2s::interp {

namespace {

struct FormatSpec {
  char fill = ' ';
  char align = 0;  // '<', '>', '^', '=' or 0 (the type's default)
  char sign = '-';
  bool alternate = false;
  int width = 0;
  char grouping = 0;  // ',' or '_'
  int precision = -1;
  char type = 0;
};

bool parse_spec(const std::string& s, FormatSpec* f) {
  size_t i = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && is_align(s[1])) {
    f->fill = s[0];
    f->align = s[1];
    i = 2;
  } else if (!s.empty() && is_align(s[0])) {
    f->align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) f->sign = s[i++];
  if (i < s.size() && s[i] == '#') {
    f->alternate = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    if (!f->align) {
      f->fill = '0';
      f->align = '=';
    }
    ++i;
  }
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    f->width = f->width * 10 + (s[i++] - '0');
    if (f->width > 10000) return false;
  }
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) f->grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    f->precision = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      f->precision = f->precision * 10 + (s[i++] - '0');
      if (f->precision > 1000) return false;
    }
  }
  if (i < s.size()) f->type = s[i++];
  return i == s.size();
}

std::string group_digits(const std::string& digits, char sep) {
  std::string out;
  int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += sep;
    out += digits[i];
  }
  return out;
}

std::string pad(const std::string& body, const std::string& sign, const FormatSpec& f,
                char default_align) {
  const int len = static_cast<int>(body.size() + sign.size());
  if (f.width <= len) return sign + body;
  const int room = f.width - len;
  const char align = f.align ? f.align : default_align;
  const std::string fill(room, f.fill);
  switch (align) {
    case '<':
      return sign + body + fill;
    case '^':
      return std::string(room / 2, f.fill) + sign + body + std::string(room - room / 2, f.fill);
    case '=':
      return sign + fill + body;
    default:
      return fill + sign + body;
  }
}

std::string printf_str(const char* fmt, int precision, double v) {
  char buf[1536];
  std::snprintf(buf, sizeof buf, fmt, precision, v);
  return buf;
}

// Formats a Python number; an empty string with *error set when the spec does not fit.
std::string format_number(const IValue& v, const FormatSpec& f, std::string* error) {
  const bool is_int = v.is_int() || v.is_bool();
  char type = f.type;
  std::string body;
  bool negative = false;
  if (is_int && (type == 0 || type == 'd' || type == 'n' || type == 'x' || type == 'X' ||
                 type == 'o' || type == 'b')) {
    int64_t x = v.to_int();
    negative = x < 0;
    uint64_t mag = negative ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
    int base = type == 'x' || type == 'X' ? 16 : type == 'o' ? 8 : type == 'b' ? 2 : 10;
    do {
      int d = static_cast<int>(mag % base);
      body.insert(body.begin(),
                  static_cast<char>(d < 10 ? '0' + d : (type == 'X' ? 'A' : 'a') + d - 10));
      mag /= base;
    } while (mag);
    if (f.grouping) body = group_digits(body, f.grouping);
    if (f.alternate && base != 10)
      body = std::string("0") + (base == 16 ? type : base == 8 ? 'o' : 'b') + body;
  } else if (type == 0 || type == 'f' || type == 'F' || type == 'e' || type == 'E' || type == 'g' ||
             type == 'G' || type == '%') {
    double x = v.to_double();
    negative = std::signbit(x) && !std::isnan(x);
    double mag = std::fabs(x);
    int p = f.precision < 0 ? 6 : f.precision;
    if (std::isnan(x) || std::isinf(x)) {
      body = std::isnan(x) ? "nan" : "inf";
      if (type == 'F' || type == 'E' || type == 'G') {
        std::transform(body.begin(), body.end(), body.begin(), ::toupper);
      }
      if (type == '%') body += "%";
    } else if (type == 'f' || type == 'F') {
      body = printf_str(f.alternate ? "%#.*f" : "%.*f", p, mag);
    } else if (type == 'e' || type == 'E') {
      body = printf_str(type == 'e' ? "%.*e" : "%.*E", p, mag);
    } else if (type == 'g' || type == 'G') {
      body =
          printf_str(type == 'g' ? (f.alternate ? "%#.*g" : "%.*g") : "%.*G", p == 0 ? 1 : p, mag);
    } else if (type == '%') {
      body = printf_str("%.*f", p, mag * 100) + "%";
    } else if (f.precision < 0) {
      body = IValue(mag).str();  // no type, no precision: repr()
    } else {
      // No type with a precision: like 'g', but a float keeps a digit after the point.
      body = printf_str("%.*g", p == 0 ? 1 : p, mag);
      if (body.find_first_of(".e") == std::string::npos) body += ".0";
    }
    if (f.grouping && !body.empty() && std::isdigit(static_cast<unsigned char>(body[0]))) {
      size_t end = body.find_first_not_of("0123456789");
      if (end == std::string::npos) end = body.size();
      body = group_digits(body.substr(0, end), f.grouping) + body.substr(end);
    }
  } else {
    *error = std::string("ValueError: Unknown format code '") + type + "' for object of type '" +
             (v.is_bool()  ? "bool"
              : v.is_int() ? "int"
                           : "float") +
             "'";
    return "";
  }
  std::string sign = negative ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
  return pad(body, sign, f, '>');
}

// Levenshtein distance with Python's costs (traceback.py's _levenshtein_distance): a
// change of case costs 1, any other edit 2, so `W_h` is close to `w_h`.
size_t edit_distance(const std::string& a, const std::string& b) {
  constexpr size_t kMove = 2, kCase = 1;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j * kMove;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i * kMove;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = a[i - 1] == b[j - 1] ? 0
                   : std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                           std::tolower(static_cast<unsigned char>(b[j - 1]))
                       ? kCase
                       : kMove;
      size_t next = std::min({row[j] + kMove, row[j - 1] + kMove, diag + sub});
      diag = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

size_t max_suggestion_distance(const std::string& a, const std::string& b) {
  return (a.size() + b.size() + 3) * 2 / 6;
}

}  // namespace

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const std::string& c : candidates) {
    if (c == name || c.rfind("__", 0) == 0) continue;
    size_t limit = std::min(max_suggestion_distance(name, c), best_distance - 1);
    size_t d = edit_distance(name, c);
    if (d <= limit) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::vector<std::string> nearest_names(const std::string& name,
                                       const std::vector<std::string>& candidates, size_t n) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& c : candidates) {
    size_t d = edit_distance(name, c);
    if (d <= max_suggestion_distance(name, c) || c.find(name) != std::string::npos) {
      scored.emplace_back(d, c);
    }
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto& [d, c] : scored) {
    if (out.size() == n) break;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string Interpreter::text_of(const SourceRange& range) {
  if (!range.file || !range.known()) return "<expression>";
  std::string_view line = range.file->line_text(range.line);
  const size_t col = static_cast<size_t>(std::max(range.col, 1)) - 1;
  if (col >= line.size()) return "<expression>";
  return std::string(line.substr(col, static_cast<size_t>(std::max(range.len, 1))));
}

void Interpreter::fail(const std::string& message, const SourceRange& range,
                       const std::string& hint) const {
  throw Error(message, range, hint);
}

void Interpreter::check_stack(const SourceRange& range) const {
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  if (stack_base_ && here<stack_base_&& static_cast<size_t>(stack_base_ - here)> stack_budget_) {
    fail("RecursionError: the program nests calls and expressions too deeply for d2s", range,
         "simplify the nesting or lower the recursion depth");
  }
}

namespace {

// The Python number of a one-element tensor, as item() gives it.
IValue item_value(const Tensor& t) {
  double item = t.value_at(0);
  return t.dtype() == DType::Float32 ? IValue(item)
         : t.dtype() == DType::Int64 ? IValue(static_cast<int64_t>(item))
                                     : IValue(item != 0);
}

}  // namespace

std::string Interpreter::format_value(const IValue& v, const std::string& spec,
                                      const SourceRange& range) {
  // Tensor.__format__ formats a 0-d tensor as its item() even without a spec
  // (f"loss {loss}" writes `loss 0.5`); other values without one write their str().
  if (spec.empty()) {
    const bool zero_dim = v.is_tensor() && v.to_tensor().defined() && v.to_tensor().dim() == 0;
    return py_str(zero_dim ? item_value(v.to_tensor()) : v);  // format(x, "") is str(x)
  }
  if (as_obj<SymbolicValue>(v)) return format_value(concrete_silently(v), spec, range);
  FormatSpec f;
  if (!parse_spec(spec, &f)) fail("ValueError: Invalid format specifier '" + spec + "'", range);
  IValue x = v;
  if (v.is_tensor()) {
    // Tensor.__format__: a 0-d tensor formats as its item(); others take no spec.
    const Tensor& t = v.to_tensor();
    if (t.dim() != 0)
      fail("TypeError: unsupported format string passed to Tensor.__format__", range);
    x = item_value(t);
  }
  if (x.is_number()) {
    std::string error;
    std::string out = format_number(x, f, &error);
    if (!error.empty()) fail(error, range);
    return out;
  }
  if (x.is_string() || (f.type == 0 && f.precision < 0 && !f.grouping && f.sign == '-')) {
    if (f.type != 0 && f.type != 's') {
      fail(std::string("ValueError: Unknown format code '") + f.type + "' for object of type 'str'",
           range);
    }
    std::string s = x.is_string() ? x.to_string() : py_str(x);
    if (f.precision >= 0 && static_cast<size_t>(f.precision) < s.size()) s.resize(f.precision);
    return pad(s, "", f, '<');
  }
  fail("TypeError: unsupported format string passed to " + py_type_name(x) + ".__format__", range);
}

std::string Interpreter::py_repr(const IValue& v) const {
  std::vector<const ValueList*> open;
  return text_of_value(v, true, &open);
}

std::string Interpreter::py_str(const IValue& v) const {
  std::vector<const ValueList*> open;
  return text_of_value(v, false, &open);
}

std::string Interpreter::text_of_value(const IValue& v, bool repr,
                                       std::vector<const ValueList*>* open) const {
  if (v.is_string()) return repr ? v.repr() : v.to_string();
  if (v.is_tuple() || v.is_list()) {
    const ValueList& items = v.items();
    // A list that contains itself prints as [...], as in Python.
    if (std::find(open->begin(), open->end(), &items) != open->end())
      return v.is_list() ? "[...]" : "(...)";
    open->push_back(&items);
    std::string out = v.is_tuple() ? "(" : "[";
    for (size_t i = 0; i < items.size(); ++i)
      out += (i ? ", " : "") + text_of_value(items[i], true, open);
    if (v.is_tuple() && items.size() == 1) out += ",";
    open->pop_back();
    return out + (v.is_tuple() ? ")" : "]");
  }
  if (!v.is_object()) return v.str();
  if (auto* s = as_obj<SizeValue>(v)) {
    std::string out = "torch.Size([";
    for (size_t i = 0; i < s->items.size(); ++i)
      out += (i ? ", " : "") + text_of_value(s->items[i], false, open);
    return out + "])";
  }
  if (auto* t = as_obj<NamedTupleValue>(v)) {
    std::string out = t->name + "(";
    for (size_t i = 0; i < t->items.size(); ++i)
      out += (i ? ", " : "") + (*t->fields)[i] + "=" + text_of_value(t->items[i], true, open);
    return out + ")";
  }
  if (auto* s = as_obj<SymbolicValue>(v)) return py_str(s->concrete());
  if (auto* d = as_obj<DTypeValue>(v)) return dtype_torch_name(d->dtype);
  if (auto* t = as_obj<TypeInfoValue>(v)) return type_info_repr(t->info);
  if (auto* r = as_obj<RangeValue>(v)) {
    return "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop) +
           (r->step != 1 ? ", " + std::to_string(r->step) : "") + ")";
  }
  if (auto* s = as_obj<SliceValue>(v)) {
    return "slice(" + py_repr(s->start) + ", " + py_repr(s->stop) + ", " + py_repr(s->step) + ")";
  }
  if (DictValue* d = as_dict(v)) return d->text(*this);
  if (as_obj<EllipsisValue>(v)) return "Ellipsis";
  if (auto* e = as_obj<ExceptionValue>(v)) {
    if (repr)
      return e->type + "(" + [&] {
        std::string t = text_of_value(IValue::tuple(e->args), true, open);
        return e->args.size() == 1 ? t.substr(1, t.size() - 3) : t.substr(1, t.size() - 2);
      }() + ")";
    if (e->args.empty()) return "";
    return e->args.size() == 1 ? text_of_value(e->args[0], e->type == "KeyError", open)
                               : text_of_value(IValue::tuple(e->args), true, open);
  }
  if (auto* n = as_obj<NativeValue>(v)) return n->repr();
  if (auto* n = as_obj<NamespaceValue>(v)) return "<module '" + n->qualname + "'>";
  if (auto* b = as_obj<BuiltinValue>(v)) {
    const bool is_class = b->qualname.rfind("torch.nn.", 0) == 0 && b->qualname.size() > 9 &&
                          std::isupper(static_cast<unsigned char>(b->qualname[9]));
    return (is_class ? "<class '" : "<built-in function ") + b->qualname + (is_class ? "'>" : ">");
  }
  if (auto* f = as_obj<FunctionValue>(v)) return "<function " + f->qualname + ">";
  if (auto* m = as_obj<BoundMethodValue>(v)) return "<bound method " + m->fn->qualname + ">";
  if (auto* m = as_obj<BuiltinMethodValue>(v)) return "<built-in method " + m->name + ">";
  if (auto* c = as_obj<ClassValue>(v)) return "<class '__main__." + c->name + "'>";
  if (auto* i = as_obj<InstanceValue>(v)) {
    return i->is_module ? module_repr(*i) : "<__main__." + i->type + " object>";
  }
  return "<" + v.type_name() + " object>";
}

}  // namespace d2s::interp
