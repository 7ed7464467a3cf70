// Python's str methods that model code calls on labels (join, upper, lower, strip,
// startswith, endswith, replace, split), shared by the eager interpreter's methods and
// the ops the parse route lowers them to (core/ops/kernels_str.cpp, TorchScript's
// aten::join, aten::split.str, ...). ASCII case mapping and whitespace, as Python's for
// ASCII text.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace d2s {

std::string py_upper(const std::string& s);
std::string py_lower(const std::string& s);
// s.strip() (whitespace) or s.strip(chars).
std::string py_strip(const std::string& s, const std::optional<std::string>& chars = {});
bool py_startswith(const std::string& s, const std::string& prefix);
bool py_endswith(const std::string& s, const std::string& suffix);
// s.replace(old, new[, count]); count < 0 replaces every occurrence.
std::string py_replace(const std::string& s, const std::string& old, const std::string& with,
                       long long count = -1);
// s.split() (runs of whitespace, no empty pieces) or s.split(sep) (sep non-empty), at most
// `maxsplit` splits when it is >= 0.
std::vector<std::string> py_split(const std::string& s, const std::optional<std::string>& sep,
                                  long long maxsplit = -1);

}  // namespace d2s
