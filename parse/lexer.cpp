// The lexer's layout half: encoding check, indentation, newlines, names, operators
// and brackets. Numbers, strings and f-strings are in lexer_literals.cpp.
#include "parse/lexer.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <unordered_map>

#include "core/base/error.h"

namespace d2s {

// ------------------------------------------------------------------ SourceMap

SourceMap::SourceMap(std::shared_ptr<const SourceFile> file) : file_(std::move(file)) {
  const std::string& text = file_->text();
  line_starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts_.push_back(i + 1);
  }
}

SourceRange SourceMap::range(size_t begin, size_t end) const {
  size_t size = file_->text().size();
  begin = std::min(begin, size);
  // The lexer asks in file order, mostly on the line it asked last: try that line before
  // searching all of them.
  size_t index = last_line_.load(std::memory_order_relaxed);
  if (!(line_starts_[index] <= begin &&
        (index + 1 == line_starts_.size() || begin < line_starts_[index + 1]))) {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), begin);
    index = static_cast<size_t>(it - line_starts_.begin()) - 1;
    last_line_.store(index, std::memory_order_relaxed);
  }
  size_t line_end = index + 1 < line_starts_.size() ? line_starts_[index + 1] - 1 : size;
  size_t stop = std::min(std::max(end, begin), line_end);
  int len = std::max(1, static_cast<int>(stop - begin));
  return SourceRange(file_, static_cast<int>(index) + 1,
                     static_cast<int>(begin - line_starts_[index]) + 1, len);
}

void SourceMap::fail(const std::string& message, size_t begin, size_t end,
                     const std::string& hint) const {
  throw Error(message, range(begin, end), hint);
}

// ---------------------------------------------------------------- characters

namespace {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Decodes one UTF-8 sequence at s[i]; returns its length, or 0 when it is invalid
// (truncated, overlong, a surrogate or above U+10FFFF).
size_t utf8_decode(std::string_view s, size_t i, uint32_t* cp) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t len;
  uint32_t value;
  uint32_t min;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, value = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, value = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, value = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(i + k) & 0x3F);
  }
  if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
  *cp = value;
  return len;
}

std::string hex_code_point(uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

// Operators by spelling, longest first, so the first match is the longest.
struct OperatorSpelling {
  std::string_view text;
  TokenKind kind;
};
const std::vector<OperatorSpelling>& operators_longest_first() {
  static const std::vector<OperatorSpelling> table = [] {
    std::vector<OperatorSpelling> ops = {
#define D2S_OPERATOR_ENTRY(k, text) {text, TokenKind::k},
        D2S_FORALL_OPERATORS(D2S_OPERATOR_ENTRY)
#undef D2S_OPERATOR_ENTRY
    };
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto& a, const auto& b) { return a.text.size() > b.text.size(); });
    return ops;
  }();
  return table;
}

const std::unordered_map<std::string_view, TokenKind>& keywords() {
  static const std::unordered_map<std::string_view, TokenKind> table = {
#define D2S_KEYWORD_ENTRY(k, text) {text, TokenKind::k},
      D2S_FORALL_KEYWORDS(D2S_KEYWORD_ENTRY)
#undef D2S_KEYWORD_ENTRY
  };
  return table;
}

bool is_string_prefix(std::string_view word) {
  if (word.size() > 2) return false;
  std::string lower;
  for (char c : word) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  static const std::array<std::string_view, 8> prefixes = {"r",  "u",  "f",  "b",
                                                           "br", "rb", "fr", "rf"};
  return std::find(prefixes.begin(), prefixes.end(), lower) != prefixes.end();
}

}  // namespace

// ---------------------------------------------------------------------- Lexer

Lexer::Lexer(std::shared_ptr<const SourceFile> file, int max_nesting)
    : map_(std::make_shared<const SourceMap>(std::move(file))),
      text_(map_->text()),
      end_(text_.size()),
      max_nesting_(max_nesting) {
  check_encoding();
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte-order mark
}

Lexer::Lexer(std::shared_ptr<const SourceMap> map, size_t begin, size_t end, int max_nesting)
    : map_(std::move(map)),
      text_(map_->text()),
      pos_(begin),
      end_(std::min(end, text_.size())),
      bracket_mode_(true),
      max_nesting_(max_nesting),
      at_line_start_(false) {}

// The one pass over raw bytes: after it, every later step may assume valid UTF-8
// without NULs (so '\0' can serve as the out-of-range sentinel of at()).
void Lexer::check_encoding() const {
  for (size_t i = 0; i < text_.size();) {
    if (text_[i] == '\0') {
      fail("SyntaxError: source code cannot contain null bytes", i, i + 1,
           "the file looks binary or corrupted; save the model program as UTF-8 text");
    }
    uint32_t cp;
    size_t len = utf8_decode(text_, i, &cp);
    if (len == 0) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(text_[i]));
      fail(std::string("SyntaxError: the file is not valid UTF-8 (byte ") + buf + ")", i, i + 1,
           "save the model program as UTF-8 text");
    }
    i += len;
  }
}

size_t Lexer::newline_length(size_t i) const {
  if (at(i) == '\n') return 1;
  if (at(i) == '\r' && at(i + 1) == '\n') return 2;
  return 0;
}

Token Lexer::make(TokenKind kind, size_t begin, size_t end) const {
  Token tok;
  tok.kind = kind;
  tok.range = map_->range(begin, end);
  tok.begin = begin;
  tok.end = end;
  return tok;
}

Error nesting_error(const SourceRange& at, int max_nesting) {
  return Error("SyntaxError: nesting too deep: more than " + std::to_string(max_nesting) +
                   " levels of brackets, blocks or chained operators",
               at,
               "split the code: compute parts in intermediate variables, or move inner blocks "
               "into helper functions");
}

std::vector<Token> tokenize(std::shared_ptr<const SourceFile> file) {
  Lexer lexer(std::move(file));
  std::vector<Token> out;
  do {
    out.push_back(lexer.next());
  } while (!out.back().is(TokenKind::EndOfFile));
  return out;
}

Token Lexer::next() {
  if (pending_dedents_ > 0) {
    --pending_dedents_;
    return make(TokenKind::Dedent, dedent_at_, dedent_at_);
  }
  if (finished_) {
    size_t eof = end_ > 0 && text_[end_ - 1] == '\n' && !bracket_mode_ ? end_ - 1 : end_;
    return make(TokenKind::EndOfFile, eof, eof);
  }
  while (true) {
    if (at_line_start_ && !bracket_mode_) {
      Token tok;
      if (start_line(tok)) return tok;
    }
    skip_blanks();
    if (at_end(pos_)) return finish();
    if (size_t nl = newline_length(pos_)) {
      size_t begin = pos_;
      pos_ += nl;
      // Inside brackets a newline is only whitespace, as in Python.
      if (bracket_mode_ || !brackets_.empty()) continue;
      at_line_start_ = true;
      if (!line_has_tokens_) continue;
      line_has_tokens_ = false;
      return make(TokenKind::Newline, begin, begin + 1);
    }
    char c = at(pos_);
    Token tok;
    if (is_ident_start(c)) {
      tok = lex_name_or_string();
    } else if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
      tok = lex_number();
    } else if (c == '\'' || c == '"') {
      tok = lex_string(pos_, pos_, {});
    } else {
      tok = lex_operator();
    }
    line_has_tokens_ = true;
    return tok;
  }
}

// At the start of a physical line outside brackets: skips blank and comment-only
// lines, then compares the indentation with the stack.
bool Lexer::start_line(Token& out) {
  at_line_start_ = false;
  while (true) {
    size_t line_begin = pos_;
    size_t p = pos_;
    int width = 0;
    size_t tab = std::string_view::npos;
    for (; !at_end(p); ++p) {
      char c = text_[p];
      if (c == ' ') {
        ++width;
      } else if (c == '\t') {
        if (tab == std::string_view::npos) tab = p;
        ++width;
      } else if (c == '\f') {
        width = 0;  // Python resets the column at a form feed
      } else {
        break;
      }
    }
    if (at_end(p)) {
      pos_ = p;
      return false;  // trailing blank lines: next() finishes the file
    }
    if (text_[p] == '#' || newline_length(p)) {
      while (!at_end(p) && !newline_length(p)) ++p;
      pos_ = p + newline_length(p);
      continue;
    }
    if (tab != std::string_view::npos) {
      fail("TabError: indentation contains a tab", tab, tab + 1,
           "d2s requires spaces for indentation; replace each tab with spaces (4 per level)");
    }
    pos_ = p;
    if (width > indents_.back()) {
      indents_.push_back(width);
      if (static_cast<int>(indents_.size()) - 1 > max_nesting_) {
        throw nesting_error(map_->range(p, p + 1), max_nesting_);
      }
      out = make(TokenKind::Indent, line_begin, p);
      return true;
    }
    if (width < indents_.back()) {
      int popped = 0;
      while (width < indents_.back()) {
        indents_.pop_back();
        ++popped;
      }
      if (width != indents_.back()) {
        fail("IndentationError: unindent does not match any outer indentation level", p, p + 1,
             "line this statement up with the block it belongs to (the indentation of an "
             "earlier line)");
      }
      pending_dedents_ = popped - 1;
      dedent_at_ = p;
      out = make(TokenKind::Dedent, p, p);
      return true;
    }
    return false;
  }
}

Token Lexer::finish() {
  if (!brackets_.empty()) {
    const Token& open = brackets_.back();
    fail("SyntaxError: '" + std::string(token_spelling(open.kind)) + "' was never closed",
         open.begin, open.end,
         "close it with '" +
             std::string(open.is(TokenKind::LParen)     ? ")"
                         : open.is(TokenKind::LBracket) ? "]"
                                                        : "}") +
             "'");
  }
  finished_ = true;
  size_t eof = end_ > 0 && text_[end_ - 1] == '\n' && !bracket_mode_ ? end_ - 1 : end_;
  pending_dedents_ = static_cast<int>(indents_.size()) - 1;
  indents_.resize(1);
  dedent_at_ = eof;
  if (line_has_tokens_ && !bracket_mode_) {
    line_has_tokens_ = false;
    return make(TokenKind::Newline, eof, eof);
  }
  return next();
}

void Lexer::skip_blanks() {
  while (!at_end(pos_)) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\f') {
      ++pos_;
    } else if (c == '#') {
      while (!at_end(pos_) && !newline_length(pos_)) ++pos_;
    } else if (c == '\\') {
      if (size_t nl = newline_length(pos_ + 1)) {
        pos_ += 1 + nl;
      } else if (at_end(pos_ + 1)) {
        fail("SyntaxError: unexpected end of file after line continuation character", pos_,
             pos_ + 1, "remove the trailing backslash");
      } else {
        fail("SyntaxError: unexpected character after line continuation character", pos_, pos_ + 1,
             "a backslash continues a line only as the last character of the line");
      }
    } else {
      return;
    }
  }
}

Token Lexer::lex_name_or_string() {
  size_t begin = pos_;
  size_t p = pos_;
  while (is_ident_char(at(p))) ++p;
  std::string_view word = text_.substr(begin, p - begin);
  if ((at(p) == '\'' || at(p) == '"') && is_string_prefix(word)) {
    return lex_string(begin, p, word);
  }
  if (!at_end(p) && static_cast<unsigned char>(text_[p]) >= 0x80) fail_character(p);
  pos_ = p;
  auto kw = keywords().find(word);
  Token tok = make(kw == keywords().end() ? TokenKind::Name : kw->second, begin, p);
  if (tok.is(TokenKind::Name)) tok.text = std::string(word);
  return tok;
}

Token Lexer::lex_operator() {
  const char first = text_[pos_];
  for (const OperatorSpelling& op : operators_longest_first()) {
    if (op.text[0] != first) continue;  // most spellings differ at once
    if (text_.substr(pos_, std::min(op.text.size(), end_ - pos_)) == op.text) {
      Token tok = make(op.kind, pos_, pos_ + op.text.size());
      pos_ += op.text.size();
      track_bracket(tok);
      return tok;
    }
  }
  fail_character(pos_);
}

void Lexer::track_bracket(const Token& tok) {
  switch (tok.kind) {
    case TokenKind::LParen:
    case TokenKind::LBracket:
    case TokenKind::LBrace:
      brackets_.push_back(tok);
      if (static_cast<int>(brackets_.size()) > max_nesting_) {
        throw nesting_error(tok.range, max_nesting_);
      }
      return;
    case TokenKind::RParen:
    case TokenKind::RBracket:
    case TokenKind::RBrace: {
      std::string close(token_spelling(tok.kind));
      if (brackets_.empty()) {
        fail("SyntaxError: unmatched '" + close + "'", tok.begin, tok.end,
             "remove it, or add the opening bracket it closes");
      }
      const Token& open = brackets_.back();
      TokenKind expected = open.is(TokenKind::LParen)     ? TokenKind::RParen
                           : open.is(TokenKind::LBracket) ? TokenKind::RBracket
                                                          : TokenKind::RBrace;
      if (tok.kind != expected) {
        std::string where =
            open.range.line != tok.range.line ? " on line " + std::to_string(open.range.line) : "";
        fail("SyntaxError: closing parenthesis '" + close +
                 "' does not match opening parenthesis '" + std::string(token_spelling(open.kind)) +
                 "'" + where,
             tok.begin, tok.end,
             "close '" + std::string(token_spelling(open.kind)) + "' with '" +
                 std::string(token_spelling(expected)) + "'");
      }
      brackets_.pop_back();
      return;
    }
    default:
      return;
  }
}

void Lexer::fail_character(size_t at_pos) const {
  unsigned char c = static_cast<unsigned char>(at(at_pos));
  if (c == '!') {
    fail("SyntaxError: invalid syntax: unexpected '!'", at_pos, at_pos + 1,
         "use 'not' for logical negation and '!=' for inequality");
  }
  if (c == '\r') {
    fail("SyntaxError: invalid character '\\r' (U+000D)", at_pos, at_pos + 1,
         "save the file with \\n (Unix) or \\r\\n (Windows) line endings");
  }
  uint32_t cp = c;
  size_t len = 1;
  if (c >= 0x80) {
    len = utf8_decode(text_.substr(0, end_), at_pos, &cp);
    if (len == 0) len = 1, cp = c;  // unreachable after check_encoding; stay safe
  }
  if (c < 0x20 || c == 0x7F) {
    fail("SyntaxError: invalid non-printable character " + hex_code_point(cp), at_pos, at_pos + len,
         "delete it; it is invisible in most editors");
  }
  std::string shown(text_.substr(at_pos, len));
  fail("SyntaxError: invalid character '" + shown + "' (" + hex_code_point(cp) + ")", at_pos,
       at_pos + len,
       c >= 0x80 ? "outside strings and comments d2s accepts only ASCII: names are letters, "
                   "digits and '_'"
                 : "this character has no meaning outside strings and comments");
}

}  // namespace d2s
