#include "core/base/error.h"

#include <algorithm>

namespace d2s {

Error::Error(std::string message, SourceRange range, std::string hint, int exit_code)
    : message_(std::move(message)),
      range_(std::move(range)),
      hint_(std::move(hint)),
      exit_code_(exit_code) {}

std::string Error::format() const {
  std::string out;
  if (range_.file || range_.known()) {
    out += range_.known() ? range_.str() : range_.path();
    out += ": ";
  }
  out += "error: " + message_ + "\n";
  if (range_.file && range_.known()) {
    std::string_view line = range_.file->line_text(range_.line);
    if (!line.empty()) {
      out += "    ";
      out += line;
      out += "\n    ";
      // Keep tabs so the caret lines up under tab-indented source.
      int col = std::max(range_.col, 1);
      for (int i = 1; i < col && i - 1 < static_cast<int>(line.size()); ++i) {
        out += line[i - 1] == '\t' ? '\t' : ' ';
      }
      int room = std::max(1, static_cast<int>(line.size()) - col + 1);
      int len = std::clamp(range_.len, 1, room);
      out += '^';
      out += std::string(len - 1, '~');
      out += "\n";
    }
  }
  if (!hint_.empty()) out += "hint: " + hint_ + "\n";
  return out;
}

}  // namespace d2s
