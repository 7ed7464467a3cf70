#include "core/base/source.h"

#include <fstream>
#include <sstream>

#include "core/base/error.h"

namespace d2s {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

std::shared_ptr<const SourceFile> SourceFile::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error("cannot read file '" + path + "'", SourceRange(),
                "check the path and that the file is readable");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return std::make_shared<const SourceFile>(path, text.str());
}

std::string_view SourceFile::line_text(int line) const {
  if (line < 1 || line > line_count()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = line < line_count() ? line_starts_[line] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceRange::file_name() const {
  std::string p = path();
  size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string SourceRange::str() const {
  return path() + ":" + std::to_string(line) + ":" + std::to_string(col);
}

SourceRange SourceRange::span(const SourceRange& a, const SourceRange& b) {
  if (a.file != b.file || a.line != b.line || b.col < a.col) return a;
  return SourceRange(a.file, a.line, a.col, b.col + b.len - a.col);
}

}  // namespace d2s
