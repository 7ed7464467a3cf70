#include "core/ops/percent_format.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace d2s {

namespace {
constexpr const char* kCountHint =
    "give one value per % conversion: a tuple for several (\"%d x %d\" % (h, w)), the value "
    "itself for one";
}  // namespace

std::string percent_format(PercentFormatHost& host, const std::string& fmt, const IValue& args,
                           bool args_are_mapping) {
  // The values to convert: a tuple's items, a mapping (for %(key)s), or the one value.
  const bool is_tuple = args.is_tuple();
  const bool mapping = args_are_mapping;
  ValueList values = is_tuple ? args.tuple_items() : ValueList{args};
  size_t next = 0;
  bool used_key = false;
  auto take = [&]() -> IValue {
    if (next >= values.size())
      host.fail("TypeError: not enough arguments for format string", kCountHint);
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
    auto incomplete = [&]() { host.fail("ValueError: incomplete format"); };
    if (j >= fmt.size()) incomplete();
    IValue value;
    bool have_value = false;
    if (fmt[j] == '(') {
      const size_t close = fmt.find(')', j);
      if (close == std::string::npos) host.fail("ValueError: incomplete format key");
      if (!mapping) host.fail("TypeError: format requires a mapping");
      value = host.lookup(args, fmt.substr(j + 1, close - j - 1));
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
        const IValue star = take();
        std::optional<IValue> n = star.is_tensor() ? std::nullopt : host.number(star);
        if (!n || n->is_double()) host.fail("TypeError: * wants int");
        return std::to_string(n->is_bool() ? int64_t{n->to_bool()} : n->to_int());
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
      host.fail(std::string("ValueError: unsupported format character '") + conv + "' (0x" + hex +
                ") at index " + std::to_string(j));
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
          host.fail("TypeError: %c requires int or char");
        }
      } else {
        s = conv == 's' ? host.str(value) : host.repr(value);
      }
      if (has_precision) s = s.substr(0, std::stoul(precision));
      // printf pads strings on the left unless '-' is given.
      out += host.format(IValue(s), std::string(left ? "<" : ">") + width);
      continue;
    }
    // Numbers: %d of a float is its int (truncated), as Python's int() gives it.
    IValue x = value;
    if (!x.is_tensor()) {
      std::optional<IValue> n = host.number(value);
      const bool integer_only = conv == 'x' || conv == 'X' || conv == 'o';
      if (!n || (integer_only && n->is_double())) {
        const std::string got = host.type_name(n ? *n : value);
        if (integer_only) {
          host.fail(std::string("TypeError: %") + conv + " format: an integer is required, not " +
                    got);
        }
        if (conv == 'd' || conv == 'i' || conv == 'u') {
          host.fail(std::string("TypeError: %") + conv +
                    " format: a real number is required, not " + got);
        }
        host.fail("TypeError: must be real number, not " + got);
      }
      x = *n;
      if ((conv == 'd' || conv == 'i' || conv == 'u') && x.is_double()) {
        const double d = x.to_double();
        if (!std::isfinite(d)) host.fail("OverflowError: cannot convert float infinity to integer");
        x = IValue(static_cast<int64_t>(d));
      }
      if (x.is_bool()) x = IValue(static_cast<int64_t>(x.to_bool()));
    }
    const char type = conv == 'i' || conv == 'u' ? 'd' : conv;
    const std::string prec = has_precision && std::string("eEfFgG").find(conv) != std::string::npos
                                 ? "." + precision
                                 : "";
    // Python's %-format pads with the alignment of numbers (right, sign first when 0).
    out += host.format(
        x, std::string(left ? "<" : "") + sign + alt + zero + width + prec + std::string(1, type));
  }
  if (!used_key && !mapping && next < values.size()) {
    host.fail("TypeError: not all arguments converted during string formatting", kCountHint);
  }
  return out;
}

}  // namespace d2s
