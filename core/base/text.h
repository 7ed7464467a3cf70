// Small text helpers shared by the printers and writers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace d2s {

// `s` in double quotes with \" \\ \n \t \r escaped and other control bytes as \xNN:
// readable in printed IR and AST dumps, and a valid YAML double-quoted scalar.
std::string quote_string(std::string_view s);

// Levenshtein distance between two names.
size_t edit_distance(std::string_view a, std::string_view b);

// "did you mean 'x'? " for the closest of `names` to `word` when it is a near miss
// (distance at most max(2, |word| / 3)), else "". Used in hints about input names.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& names);

// "a, b, c"
std::string join_names(const std::vector<std::string>& items);

}  // namespace d2s
