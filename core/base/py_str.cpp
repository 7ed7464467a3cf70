#include "core/base/py_str.h"

#include <cctype>

namespace d2s {

namespace {
constexpr const char* kWhitespace = " \t\n\r\f\v";
}

std::string py_upper(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string py_lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string py_strip(const std::string& s, const std::optional<std::string>& chars) {
  const std::string set = chars ? *chars : kWhitespace;
  const size_t b = s.find_first_not_of(set);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(set) - b + 1);
}

bool py_startswith(const std::string& s, const std::string& prefix) {
  return prefix.size() <= s.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool py_endswith(const std::string& s, const std::string& suffix) {
  return suffix.size() <= s.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string py_replace(const std::string& s, const std::string& old, const std::string& with,
                       long long count) {
  std::string out;
  size_t pos = 0;
  if (old.empty()) {
    // Python inserts `with` before every character and at the end.
    for (size_t i = 0; i <= s.size(); ++i) {
      if (count >= 0 && static_cast<long long>(i) >= count) return out + s.substr(i);
      out += with;
      if (i < s.size()) out += s[i];
    }
    return out;
  }
  long long done = 0;
  for (size_t hit; (count < 0 || done < count) && (hit = s.find(old, pos)) != std::string::npos;
       pos = hit + old.size(), ++done) {
    out += s.substr(pos, hit - pos) + with;
  }
  return out + s.substr(pos);
}

std::vector<std::string> py_split(const std::string& s, const std::optional<std::string>& sep,
                                  long long maxsplit) {
  std::vector<std::string> out;
  if (!sep) {
    size_t i = s.find_first_not_of(kWhitespace);
    while (i != std::string::npos) {
      if (maxsplit >= 0 && static_cast<long long>(out.size()) >= maxsplit) {
        // The rest is one piece, its trailing whitespace kept, as Python keeps it.
        out.push_back(s.substr(i));
        break;
      }
      const size_t e = s.find_first_of(kWhitespace, i);
      out.push_back(s.substr(i, e == std::string::npos ? std::string::npos : e - i));
      if (e == std::string::npos) break;
      i = s.find_first_not_of(kWhitespace, e);
    }
    return out;
  }
  size_t pos = 0;
  for (size_t hit; (maxsplit < 0 || static_cast<long long>(out.size()) < maxsplit) &&
                   (hit = s.find(*sep, pos)) != std::string::npos;
       pos = hit + sep->size()) {
    out.push_back(s.substr(pos, hit - pos));
  }
  out.push_back(s.substr(pos));
  return out;
}

}  // namespace d2s
