// Source text and positions in it.
//
// A SourceFile owns the text of one input (a model program, a YAML file). A
// SourceRange points into it by 1-based line and column plus a length on that
// line, which is all an error message needs to print `file:line:col`, the line
// and a caret. Every token, AST node and IR node carries one (as TorchScript's
// SourceRange and MLIR's Location do).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace d2s {

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  // Reads a file; throws d2s::Error (exit 2) when it cannot be read.
  static std::shared_ptr<const SourceFile> load(const std::string& path);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  int line_count() const { return static_cast<int>(line_starts_.size()); }
  // The text of 1-based line `line`, without its newline; empty when out of range.
  std::string_view line_text(int line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

struct SourceRange {
  std::shared_ptr<const SourceFile> file;  // may be null for synthesized nodes
  int line = 0;                            // 1-based; 0 when unknown
  int col = 0;                             // 1-based
  int len = 1;                             // characters underlined on `line`

  SourceRange() = default;
  SourceRange(std::shared_ptr<const SourceFile> f, int l, int c, int n = 1)
      : file(std::move(f)), line(l), col(c), len(n) {}

  bool known() const { return line > 0; }
  std::string path() const { return file ? file->path() : std::string("<unknown>"); }
  std::string file_name() const;  // the path's last component, as in `# rnn.py:9:4`
  // `path:line:col`
  std::string str() const;
  // From the start of `a` to the end of `b` when both are on one line, else `a`.
  static SourceRange span(const SourceRange& a, const SourceRange& b);
};

}  // namespace d2s
