// aten::format: Python's str.format for the messages of print/assert and for
// f-strings lowered to a format string plus values. Supports `{}` / `{0}`
// fields, `{!r}` / `{!s}` conversions, `{{` / `}}`, and the format-spec mini
// language ([[fill]align][sign][0][width][,|_][.precision][type], types
// d f F e E g G % s) for numbers, strings and one-element tensors.
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

struct Spec {
  char fill = ' ';
  char align = 0;  // '<' '>' '^' '=' or 0 for the type's default
  char sign = '-';
  int width = 0;
  char grouping = 0;
  int precision = -1;
  char type = 0;
};

Spec parse_spec(const std::string& s) {
  Spec spec;
  size_t i = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && is_align(s[1])) {
    spec.fill = s[0];
    spec.align = s[1];
    i = 2;
  } else if (!s.empty() && is_align(s[0])) {
    spec.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) spec.sign = s[i++];
  if (i < s.size() && s[i] == '#') ++i;  // alternate form: not needed for d2s's types
  if (i < s.size() && s[i] == '0') {
    if (!spec.align) {
      spec.fill = '0';
      spec.align = '=';
    }
    ++i;
  }
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    spec.width = spec.width * 10 + (s[i++] - '0');
    if (spec.width > 1000) fail("format width too large");
  }
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) spec.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    spec.precision = 0;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) {
      fail("ValueError: Format specifier missing precision");
    }
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      spec.precision = spec.precision * 10 + (s[i++] - '0');
      if (spec.precision > 100) fail("format precision too large");
    }
  }
  if (i < s.size()) spec.type = s[i++];
  if (i != s.size()) fail("ValueError: Invalid format specifier '" + s + "'");
  return spec;
}

// Inserts `sep` every three digits of the integer part of a digit string.
std::string group_digits(const std::string& digits, char sep) {
  size_t end = digits.find_first_of(".eE%");
  if (end == std::string::npos) end = digits.size();
  std::string head = digits.substr(0, end), out;
  for (size_t i = 0; i < head.size(); ++i) {
    if (i && (head.size() - i) % 3 == 0) out += sep;
    out += head[i];
  }
  return out + digits.substr(end);
}

std::string pad(const std::string& sign, const std::string& body, const Spec& spec,
                char default_align) {
  const size_t len = sign.size() + body.size();
  if (static_cast<size_t>(spec.width) <= len) return sign + body;
  const size_t n = spec.width - len;
  const char align = spec.align ? spec.align : default_align;
  const std::string f(n, spec.fill);
  switch (align) {
    case '<':
      return sign + body + f;
    case '^':
      return std::string(n / 2, spec.fill) + sign + body + std::string(n - n / 2, spec.fill);
    case '=':
      return sign + f + body;
    default:
      return f + sign + body;
  }
}

std::string format_number(const IValue& v, const Spec& spec) {
  const bool integral = v.is_int() || v.is_bool();
  char type = spec.type;
  if (type == 'd' && !integral) {
    fail("ValueError: Unknown format code 'd' for object of type 'float'");
  }
  if (type && std::string("dfFeEgG%n").find(type) == std::string::npos) {
    fail(std::string("ValueError: Unknown format code '") + type + "' for object of type '" +
         v.type_name() + "'");
  }
  std::string body;
  bool negative = false;
  if (integral && (type == 0 || type == 'd' || type == 'n')) {
    if (spec.precision >= 0) fail("ValueError: Precision not allowed in integer format specifier");
    const int64_t x = v.to_int();
    negative = x < 0;
    body = std::to_string(x);
    if (negative) body.erase(0, 1);
  } else {
    double x = v.to_double();
    negative = std::signbit(x) && !std::isnan(x);
    x = std::abs(x);
    const int prec = spec.precision >= 0 ? spec.precision : 6;
    char buf[512];
    if (std::isnan(x) || std::isinf(x)) {
      body = std::isnan(x) ? "nan" : "inf";
      if (type == 'F' || type == 'E' || type == 'G') body = std::isnan(x) ? "NAN" : "INF";
      if (type == '%') body += "%";
    } else if (type == 0 && spec.precision < 0) {
      body = IValue(x).repr();  // str(float)
    } else if (type == 0) {
      // No type with a precision: like 'g', but keeps a '.0' on whole numbers.
      std::snprintf(buf, sizeof buf, "%.*g", std::max(prec, 1), x);
      body = buf;
      if (body.find_first_of(".e") == std::string::npos) body += ".0";
    } else if (type == '%') {
      std::snprintf(buf, sizeof buf, "%.*f", prec, x * 100);
      body = std::string(buf) + "%";
    } else {
      const char fmt[] = {'%', '.', '*', type == 'n' ? 'g' : type, '\0'};
      std::snprintf(buf, sizeof buf, fmt, prec, x);
      body = buf;
    }
  }
  if (spec.grouping) body = group_digits(body, spec.grouping);
  std::string sign = negative ? "-" : spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "";
  return pad(sign, body, spec, '>');
}

std::string format_str(const std::string& text, const std::string& spec_text) {
  if (spec_text.empty()) return text;
  const Spec spec = parse_spec(spec_text);
  if (spec.type && spec.type != 's') {
    fail(std::string("ValueError: Unknown format code '") + spec.type +
         "' for object of type 'str'");
  }
  std::string s = text;
  if (spec.precision >= 0 && s.size() > static_cast<size_t>(spec.precision))
    s.resize(spec.precision);
  return pad("", s, spec, '<');
}

std::string format_value(const IValue& v, const std::string& conversion,
                         const std::string& spec_text) {
  if (conversion == "r") return format_str(v.repr(), spec_text);
  if (conversion == "s") return format_str(v.str(), spec_text);
  if (!conversion.empty()) fail("ValueError: Unknown conversion specifier " + conversion);
  if (v.is_string()) return format_str(v.to_string(), spec_text);
  // Tensor.__format__: a 0-d tensor formats its item(), with or without a spec
  // (f"loss {loss}" writes `loss 0.5`); other tensors take no spec.
  if (spec_text.empty()) {
    const bool zero_dim = v.is_tensor() && v.to_tensor().defined() && v.to_tensor().dim() == 0;
    return zero_dim ? item_of(v.to_tensor()).str() : v.str();  // format(x, "") is str(x)
  }
  if (v.is_tensor()) {
    if (v.to_tensor().dim() != 0) {
      fail("TypeError: unsupported format string passed to Tensor.__format__");
    }
    return format_value(item_of(v.to_tensor()), "", spec_text);
  }
  if (v.is_number()) {
    const Spec spec = parse_spec(spec_text);
    if (spec.type == 's') {
      fail("ValueError: Unknown format code 's' for object of type '" + v.type_name() + "'");
    }
    return format_number(v, spec);
  }
  fail("TypeError: unsupported format string passed to " + v.type_name() + ".__format__");
}

}  // namespace

std::string python_format(const std::string& fmt, const ValueList& args) {
  std::string out;
  size_t next_auto = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    const char c = fmt[i];
    if (c == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}')
        ++i;
      else
        fail("ValueError: Single '}' encountered in format string");
      out += '}';
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    const size_t close = fmt.find('}', i);
    if (close == std::string::npos) fail("ValueError: Single '{' encountered in format string");
    std::string field = fmt.substr(i + 1, close - i - 1);
    i = close;
    std::string spec, conversion;
    if (size_t colon = field.find(':'); colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field.resize(colon);
    }
    if (size_t bang = field.find('!'); bang != std::string::npos) {
      conversion = field.substr(bang + 1);
      field.resize(bang);
    }
    size_t index = next_auto;
    if (field.empty()) {
      ++next_auto;
    } else if (field.find_first_not_of("0123456789") == std::string::npos && field.size() < 6) {
      index = std::stoul(field);
    } else {
      fail("KeyError: '" + field + "' (aten::format takes positional fields only)");
    }
    if (index >= args.size()) {
      fail("IndexError: Replacement index " + std::to_string(index) +
           " out of range for positional args tuple");
    }
    out += format_value(args[index], conversion, spec);
  }
  return out;
}

}  // namespace d2s::kernels
