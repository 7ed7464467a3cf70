// printf-style string formatting, `fmt % args`, as published model code writes labels and
// log lines ("layer%d" % i, "loss %.4f" % loss, "%s: %5.2f%%" % (name, acc)): each
// conversion is turned into the equivalent format spec and written by format_value, so
// numbers come out exactly as f-strings write them. Python's conversions d i u x X o e E
// f F g G s r a c and %%, the flags - + space 0 #, width and precision (also `*`), and
// %(name)s keys into a dict are supported, with Python's error messages.
#include <cmath>
#include <cstdio>
#include <string>

#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

std::string percent_format(Interpreter& in, const std::string& fmt, const IValue& args,
                           const SourceRange& range) {
  // The values to convert: a tuple's items, a dict (for %(key)s), or the one value.
  const bool is_tuple = args.is_tuple();
  DictValue* mapping = as_dict(args);
  if (mapping && mapping->is_set) mapping = nullptr;
  ValueList values = is_tuple ? args.tuple_items() : ValueList{args};
  size_t next = 0;
  bool used_key = false;
  auto take = [&]() -> IValue {
    if (next >= values.size()) in.fail("TypeError: not enough arguments for format string", range);
    return values[next++];
  };
  std::string out;
  size_t i = 0;
  while (i < fmt.size()) {
    const size_t pct = fmt.find('%', i);
    if (pct == std::string::npos) {
      out += fmt.substr(i);
      break;
    }
    out += fmt.substr(i, pct - i);
    size_t j = pct + 1;
    auto incomplete = [&]() { in.fail("ValueError: incomplete format", range); };
    if (j >= fmt.size()) incomplete();
    IValue value;
    bool have_value = false;
    if (fmt[j] == '(') {
      const size_t close = fmt.find(')', j);
      if (close == std::string::npos) in.fail("ValueError: incomplete format key", range);
      if (!mapping) in.fail("TypeError: format requires a mapping", range);
      value = mapping->get(in, IValue(fmt.substr(j + 1, close - j - 1)), range);
      have_value = true;
      used_key = true;
      j = close + 1;
    }
    std::string flags;
    while (j < fmt.size() && std::string("-+ 0#").find(fmt[j]) != std::string::npos) {
      flags += fmt[j++];
    }
    auto number_field = [&]() -> std::string {
      if (j < fmt.size() && fmt[j] == '*') {
        ++j;
        return std::to_string(in.to_index(take(), PyConversion::Scalar, range, "* wants int"));
      }
      std::string digits;
      while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) digits += fmt[j++];
      return digits;
    };
    std::string width = number_field();
    std::string precision;
    bool has_precision = false;
    if (j < fmt.size() && fmt[j] == '.') {
      ++j;
      has_precision = true;
      precision = number_field();
      if (precision.empty()) precision = "0";
    }
    while (j < fmt.size() && (fmt[j] == 'h' || fmt[j] == 'l' || fmt[j] == 'L')) ++j;
    if (j >= fmt.size()) incomplete();
    const char conv = fmt[j];
    i = j + 1;
    if (conv == '%') {
      out += '%';
      continue;
    }
    if (std::string("diuxXoeEfFgGsrac").find(conv) == std::string::npos) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "%x", static_cast<unsigned char>(conv));
      in.fail(std::string("ValueError: unsupported format character '") + conv + "' (0x" + hex +
                  ") at index " + std::to_string(j),
              range);
    }
    if (!have_value) value = take();
    const bool left = flags.find('-') != std::string::npos;
    std::string sign = flags.find('+') != std::string::npos   ? "+"
                       : flags.find(' ') != std::string::npos ? " "
                                                              : "";
    const std::string alt = flags.find('#') != std::string::npos ? "#" : "";
    const std::string zero = !left && flags.find('0') != std::string::npos ? "0" : "";
    if (conv == 's' || conv == 'r' || conv == 'a' || conv == 'c') {
      std::string s;
      if (conv == 'c') {
        if (value.is_string() && value.to_string().size() == 1) {
          s = value.to_string();
        } else if (value.is_int() && value.to_int() >= 0 && value.to_int() < 128) {
          s = std::string(1, static_cast<char>(value.to_int()));
        } else {
          in.fail("TypeError: %c requires int or char", range);
        }
      } else {
        s = conv == 's' ? in.py_str(value) : in.py_repr(value);
      }
      if (has_precision) s = s.substr(0, std::stoul(precision));
      // printf pads strings on the left unless '-' is given.
      out += in.format_value(IValue(s), std::string(left ? "<" : ">") + width, range);
      continue;
    }
    // Numbers: %d of a float is its int (truncated), as Python's int() gives it.
    IValue x = value;
    if (!x.is_tensor()) {
      std::optional<IValue> n = in.to_number(value, PyConversion::Scalar, range);
      const bool integer_only = conv == 'x' || conv == 'X' || conv == 'o';
      if (!n || (integer_only && n->is_double())) {
        const std::string got = py_type_name(n ? *n : value);
        if (integer_only) {
          in.fail(
              std::string("TypeError: %") + conv + " format: an integer is required, not " + got,
              range);
        }
        if (conv == 'd' || conv == 'i' || conv == 'u') {
          in.fail(
              std::string("TypeError: %") + conv + " format: a real number is required, not " + got,
              range);
        }
        in.fail("TypeError: must be real number, not " + got, range);
      }
      x = *n;
      if ((conv == 'd' || conv == 'i' || conv == 'u') && x.is_double()) {
        const double d = x.to_double();
        if (!std::isfinite(d))
          in.fail("OverflowError: cannot convert float infinity to integer", range);
        x = IValue(static_cast<int64_t>(d));
      }
      if (x.is_bool()) x = IValue(static_cast<int64_t>(x.to_bool()));
    }
    const char type = conv == 'i' || conv == 'u' ? 'd' : conv;
    const std::string prec = has_precision && std::string("eEfFgG").find(conv) != std::string::npos
                                 ? "." + precision
                                 : "";
    // Python's %-format pads with the alignment of numbers (right, sign first when 0).
    out += in.format_value(
        x, std::string(left ? "<" : "") + sign + alt + zero + width + prec + std::string(1, type),
        range);
  }
  if (!used_key && !mapping && next < values.size()) {
    in.fail("TypeError: not all arguments converted during string formatting", range);
  }
  return out;
}

}  // namespace d2s::interp
