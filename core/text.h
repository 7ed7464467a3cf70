// Small text helpers shared by the printers and writers.
#pragma once

#include <string>
#include <string_view>

namespace d2s {

// `s` in double quotes with \" \\ \n \t \r escaped and other control bytes as \xNN:
// readable in printed IR and AST dumps, and a valid YAML double-quoted scalar.
std::string quote_string(std::string_view s);

}  // namespace d2s
