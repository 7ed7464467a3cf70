// The lexer: source bytes to tokens, on demand.
//
// Layout follows Python: an indent stack turns leading spaces into INDENT/DEDENT;
// NEWLINE ends a logical line and is not produced for blank or comment-only lines,
// inside brackets, or after a backslash continuation. At end of file the lexer
// closes the last line and every open block, then returns EndOfFile forever.
//
// Any byte sequence is safe input: every read is bounds-checked against the end of
// the range being lexed, and every problem is one d2s::Error (exit 2) with a caret.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/source.h"
#include "parse/token.h"

namespace d2s {

// Byte offsets to 1-based line/column, built once per file and shared with the
// lexers of f-string replacement fields (so those cost nothing per field).
class SourceMap {
 public:
  explicit SourceMap(std::shared_ptr<const SourceFile> file);

  const std::shared_ptr<const SourceFile>& file() const { return file_; }
  std::string_view text() const { return file_->text(); }
  // The range starting at `begin`, its length clipped to the end of that line.
  SourceRange range(size_t begin, size_t end) const;
  [[noreturn]] void fail(const std::string& message, size_t begin, size_t end,
                         const std::string& hint = {}) const;

 private:
  std::shared_ptr<const SourceFile> file_;
  std::vector<size_t> line_starts_;
  // The line of the last range() (an index into line_starts_): a hint, checked before use,
  // so relaxed loads and stores are enough when two threads share the map.
  mutable std::atomic<size_t> last_line_{0};
};

class Lexer {
 public:
  // Lexes a whole file. Rejects invalid UTF-8 and NUL bytes up front.
  explicit Lexer(std::shared_ptr<const SourceFile> file, int max_nesting = 200);
  // Lexes bytes [begin, end) of an already-checked file as the inside of a bracket
  // (an f-string replacement field): newlines are ignored and no INDENT, DEDENT or
  // NEWLINE is produced.
  Lexer(std::shared_ptr<const SourceMap> map, size_t begin, size_t end, int max_nesting);

  Token next();
  const std::shared_ptr<const SourceMap>& map() const { return map_; }

 private:
  char at(size_t i) const { return i < end_ ? text_[i] : '\0'; }
  bool at_end(size_t i) const { return i >= end_; }
  size_t newline_length(size_t i) const;  // 1 for "\n", 2 for "\r\n", else 0
  Token make(TokenKind kind, size_t begin, size_t end) const;
  [[noreturn]] void fail(const std::string& message, size_t begin, size_t end,
                         const std::string& hint = {}) const {
    map_->fail(message, begin, end, hint);
  }

  void check_encoding() const;
  bool start_line(Token& out);  // indentation of a new logical line; true if it made a token
  Token finish();               // NEWLINE, DEDENTs and EndOfFile at the end of input
  void skip_blanks();           // spaces, comments, backslash continuations
  Token lex_name_or_string();
  Token lex_operator();
  void track_bracket(const Token& tok);
  [[noreturn]] void fail_character(size_t at) const;
  // lexer_literals.cpp
  Token lex_number();
  Token lex_string(size_t begin, size_t quote, std::string_view prefix);
  size_t scan_string_end(size_t quote, bool triple) const;

  std::shared_ptr<const SourceMap> map_;
  std::string_view text_;
  size_t pos_ = 0;
  size_t end_ = 0;
  bool bracket_mode_ = false;  // an f-string field: no layout tokens
  int max_nesting_;

  std::vector<int> indents_{0};
  int pending_dedents_ = 0;
  size_t dedent_at_ = 0;
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;  // a token since the last NEWLINE
  bool finished_ = false;
  std::vector<Token> brackets_;  // open brackets, innermost last
};

// The one "nesting too deep" diagnostic, shared by the lexer (brackets, indents)
// and the parser (every kind of nesting).
Error nesting_error(const SourceRange& at, int max_nesting);

// The whole token stream up to and including EndOfFile (for tests and tools).
std::vector<Token> tokenize(std::shared_ptr<const SourceFile> file);

// F-strings. The lexer finds where an f-string ends; the parser splits its text
// into literal text and replacement fields with split_fstring() and parses each
// field's bytes with a bracket-mode Lexer, so fields get true source columns.
struct FStringPiece {
  bool is_field = false;
  std::string text;       // literal text, escapes decoded ("x=" for a field `{x=}`)
  size_t expr_begin = 0;  // field: byte offsets of the expression in the file
  size_t expr_end = 0;
  char conversion = 0;  // 'r', 's', 'a' or 0
  std::string format_spec;
};
// `tok` must be an FString token lexed from map's file. For a field with `=`
// (`{x=}`) a literal piece holding "x=" precedes the field.
std::vector<FStringPiece> split_fstring(const Token& tok, const SourceMap& map);

// Decodes backslash escapes of a (non-raw) string body at byte `offset` of the file.
std::string decode_escapes(std::string_view body, size_t offset, const SourceMap& map);

}  // namespace d2s
