#include "core/base/number_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace d2s {
namespace {

std::string special_float(double v) {
  if (std::isnan(v)) return ".nan";
  return v > 0 ? ".inf" : "-.inf";
}

// Shortest round-trip text, laid out as Python's repr lays out a float: fixed
// notation for 1e-4 <= |v| < 1e16 (`10.0`, `0.001`), else scientific with a
// dot (`1.0e+20`) — PyYAML (YAML 1.1) only reads a float that has a dot.
template <typename T>
std::string shortest(T v, int max_digits) {
  if (!std::isfinite(v)) return special_float(v);
  char buf[64];
  for (int p = 1; p <= max_digits; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, static_cast<double>(v));
    T back = std::is_same_v<T, float> ? static_cast<T>(std::strtof(buf, nullptr))
                                      : static_cast<T>(std::strtod(buf, nullptr));
    if (back == v) break;
  }
  // buf is "-d.ddde+XX": split into sign, digits and exponent.
  std::string text = buf;
  std::string sign = text[0] == '-' ? "-" : "";
  if (!sign.empty()) text.erase(0, 1);
  size_t e = text.find('e');
  int exp = std::atoi(text.c_str() + e + 1);
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (text[i] != '.') digits += text[i];
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (exp < -4 || exp >= 16) {
    std::string mant = digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0");
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return sign + mant + ebuf;
  }
  if (exp < 0) return sign + "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
  auto whole = static_cast<size_t>(exp) + 1;
  if (digits.size() <= whole) return sign + digits + std::string(whole - digits.size(), '0') + ".0";
  return sign + digits.substr(0, whole) + "." + digits.substr(whole);
}

}  // namespace

std::string format_float32(float v) {
  return shortest(v, 9);
}
std::string format_float64(double v) {
  return shortest(v, 17);
}

}  // namespace d2s
