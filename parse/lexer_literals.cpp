// The lexer's literal half: numbers, strings with their escapes, and the split of
// an f-string into literal text and replacement fields.
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "parse/lexer.h"

namespace d2s {

namespace {

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

// ------------------------------------------------------------------- numbers

Token Lexer::lex_number() {
  size_t begin = pos_;
  size_t p = pos_;
  // Digits of `base` with single underscores between them (Python's rule); a
  // stray underscore stops the scan and is caught as a bad suffix below.
  auto digits = [&](int base, bool underscore_first) {
    size_t count = 0;
    while (true) {
      char c = at(p);
      if (digit_value(c) < base) {
        ++p, ++count;
      } else if (c == '_' && digit_value(at(p + 1)) < base && (count > 0 || underscore_first)) {
        ++p;
      } else {
        return count;
      }
    }
  };
  int base = 10;
  bool is_float = false;
  char second = at(p + 1);
  if (at(p) == '0' && (second == 'x' || second == 'X' || second == 'o' || second == 'O' ||
                       second == 'b' || second == 'B')) {
    base = (second == 'x' || second == 'X') ? 16 : (second == 'o' || second == 'O') ? 8 : 2;
    p += 2;
    if (digits(base, true) == 0) {
      const char* name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
      fail(std::string("SyntaxError: invalid ") + name + " literal", begin, p + 1,
           "write at least one digit after the prefix");
    }
  } else {
    digits(10, false);
    if (at(p) == '.') {
      is_float = true;
      ++p;
      digits(10, false);
    }
    char e = at(p);
    if (e == 'e' || e == 'E') {
      size_t q = p + 1;
      if (at(q) == '+' || at(q) == '-') ++q;
      if (digit_value(at(q)) < 10) {
        is_float = true;
        p = q;
        digits(10, false);
      }
    }
  }
  if (at(p) == 'j' || at(p) == 'J') {
    fail("NotSupportedError: complex literals are not supported by d2s", begin, p + 1,
         "d2s values are real: tensors, ints, floats and bools");
  }
  if (is_ident_char(at(p)) || (at(p) == '.' && base != 10)) {
    fail("SyntaxError: invalid " + std::string(base == 10 ? "decimal" : "number") + " literal",
         begin, p + 1, "a number must not run into a name; put a space or operator between them");
  }
  std::string spelled(text_.substr(begin, p - begin));
  std::string clean;
  for (char c : spelled) {
    if (c != '_') clean += c;
  }
  pos_ = p;
  Token tok = make(is_float ? TokenKind::Float : TokenKind::Int, begin, p);
  tok.text = spelled;
  if (is_float) {
    tok.float_value = std::strtod(clean.c_str(), nullptr);  // overflow gives inf, as in Python
    return tok;
  }
  size_t first = base == 10 ? 0 : 2;
  if (base == 10 && clean.size() > 1 && clean[0] == '0' &&
      clean.find_first_not_of('0') != std::string::npos) {
    fail("SyntaxError: leading zeros in decimal integer literals are not permitted", begin, p,
         "remove the leading zeros, or write an octal number as 0o17");
  }
  uint64_t value = 0;
  const uint64_t max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  for (size_t i = first; i < clean.size(); ++i) {
    uint64_t d = static_cast<uint64_t>(digit_value(clean[i]));
    if (value > (max - d) / static_cast<uint64_t>(base)) {
      fail("SyntaxError: integer literal is too large", begin, p,
           "d2s integers are 64-bit: the largest is 9223372036854775807");
    }
    value = value * static_cast<uint64_t>(base) + d;
  }
  tok.int_value = static_cast<int64_t>(value);
  return tok;
}

// ------------------------------------------------------------------- strings

size_t Lexer::scan_string_end(size_t quote, bool triple) const {
  char q = text_[quote];
  size_t p = quote + (triple ? 3 : 1);
  while (true) {
    if (at_end(p) || (!triple && newline_length(p))) {
      int line = map_->range(std::min(p, end_), std::min(p, end_)).line;
      size_t line_end = quote;
      while (!at_end(line_end) && !newline_length(line_end)) ++line_end;
      fail(std::string("SyntaxError: unterminated ") + (triple ? "triple-quoted " : "") +
               "string literal (detected at line " + std::to_string(line) + ")",
           quote, line_end,
           triple ? std::string("close the string with ") + q + q + q
                  : std::string("close the string with ") + q +
                        " on the same line, or use a triple-quoted string for several lines");
    }
    char c = text_[p];
    if (c == '\\') {
      size_t nl = newline_length(p + 1);
      p += 1 + (nl ? nl : 1);
      continue;
    }
    if (c == q && (!triple || (at(p + 1) == q && at(p + 2) == q))) return p;
    ++p;
  }
}

Token Lexer::lex_string(size_t begin, size_t quote, std::string_view prefix) {
  bool raw = false, is_f = false, is_bytes = false;
  for (char c : prefix) {
    raw |= c == 'r' || c == 'R';
    is_f |= c == 'f' || c == 'F';
    is_bytes |= c == 'b' || c == 'B';
  }
  if (is_bytes) {
    fail("NotSupportedError: bytes literals are not supported by d2s", begin, quote + 1,
         "use a str literal (remove the 'b' prefix)");
  }
  char q = text_[quote];
  bool triple = at(quote + 1) == q && at(quote + 2) == q;
  size_t body = quote + (triple ? 3 : 1);
  size_t close = scan_string_end(quote, triple);
  pos_ = close + (triple ? 3 : 1);
  Token tok = make(is_f ? TokenKind::FString : TokenKind::String, begin, pos_);
  if (!is_f) {
    std::string_view text = text_.substr(body, close - body);
    tok.text = raw ? std::string(text) : decode_escapes(text, body, *map_);
  }
  return tok;
}

std::string decode_escapes(std::string_view body, size_t offset, const SourceMap& map) {
  std::string out;
  out.reserve(body.size());
  auto hex = [&](size_t at, size_t count, size_t escape_at, const char* form) {
    uint32_t value = 0;
    for (size_t k = 0; k < count; ++k) {
      int d = at + k < body.size() ? digit_value(body[at + k]) : 99;
      if (d >= 16) {
        map.fail(std::string("SyntaxError: truncated ") + form + " escape", offset + escape_at,
                 offset + at + k,
                 std::string("write ") + form + " with exactly " + std::to_string(count) +
                     " hex digits");
      }
      value = value * 16 + static_cast<uint32_t>(d);
    }
    return value;
  };
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (c == '\r' && i + 1 < body.size() && body[i + 1] == '\n') {
      ++i;  // source \r\n inside a triple-quoted string reads as \n, as in Python
      continue;
    }
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      ++i;
      continue;
    }
    size_t at = i;
    char e = body[i + 1];
    i += 2;
    switch (e) {
      case '\n':
        break;  // backslash-newline joins the lines
      case '\r':
        if (i < body.size() && body[i] == '\n') ++i;
        break;
      case '\\':
      case '\'':
      case '"':
        out += e;
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
        append_utf8(out, hex(i, 2, at, "\\xXX"));
        i += 2;
        break;
      case 'u':
      case 'U': {
        size_t count = e == 'u' ? 4 : 8;
        uint32_t cp = hex(i, count, at, e == 'u' ? "\\uXXXX" : "\\UXXXXXXXX");
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          map.fail("SyntaxError: illegal Unicode character in escape", offset + at,
                   offset + i + count, "use a code point up to U+10FFFF that is not a surrogate");
        }
        append_utf8(out, cp);
        i += count;
        break;
      }
      case 'N':
        map.fail("NotSupportedError: '\\N{...}' escapes are not supported by d2s", offset + at,
                 offset + i, "write the character itself (the file is UTF-8) or use \\uXXXX");
      default:
        if (e >= '0' && e <= '7') {
          uint32_t value = static_cast<uint32_t>(e - '0');
          for (int k = 0; k < 2 && i < body.size() && body[i] >= '0' && body[i] <= '7'; ++k) {
            value = value * 8 + static_cast<uint32_t>(body[i++] - '0');
          }
          append_utf8(out, value);
        } else {
          out += '\\';  // unknown escapes keep their backslash, as in Python
          out += e;
        }
    }
  }
  return out;
}

// ----------------------------------------------------------------- f-strings

namespace {

// Splits an f-string body. Fields use the pre-3.12 rules: the string's end was
// found like any string's, so a field cannot contain the outer quote, a
// backslash or a comment.
class FStringSplitter {
 public:
  FStringSplitter(const Token& tok, const SourceMap& map) : map_(map), text_(map.text()) {
    size_t p = tok.begin;
    while (p < tok.end && text_[p] != '\'' && text_[p] != '"') {
      raw_ |= text_[p] == 'r' || text_[p] == 'R';
      ++p;
    }
    char q = text_[p];
    bool triple = p + 2 < tok.end && text_[p + 1] == q && text_[p + 2] == q;
    size_t quote_len = triple ? 3 : 1;
    begin_ = p + quote_len;
    end_ = tok.end - quote_len;
  }

  std::vector<FStringPiece> split() {
    size_t segment = begin_;
    for (size_t i = begin_; i < end_;) {
      char c = text_[i];
      if (c == '\\' && !raw_) {
        if (ch(i + 1) == 'N' && ch(i + 2) == '{') {
          map_.fail("NotSupportedError: '\\N{...}' escapes are not supported by d2s", i, i + 3,
                    "write the character itself (the file is UTF-8) or use \\uXXXX");
        }
        // Keep an escape whole, but let a brace after a backslash start a field.
        i += (ch(i + 1) == '{' || ch(i + 1) == '}') ? 1 : 2;
      } else if (c == '{' && ch(i + 1) == '{') {
        literal(segment, i + 1);
        segment = i += 2;
      } else if (c == '}' && ch(i + 1) == '}') {
        literal(segment, i + 1);
        segment = i += 2;
      } else if (c == '}') {
        map_.fail("SyntaxError: f-string: single '}' is not allowed", i, i + 1,
                  "write '}}' for a literal brace");
      } else if (c == '{') {
        literal(segment, i);
        segment = i = field(i);
      } else {
        ++i;
      }
    }
    literal(segment, end_);
    flush();
    return std::move(pieces_);
  }

 private:
  char ch(size_t i) const { return i < end_ ? text_[i] : '\0'; }

  void literal(size_t from, size_t to) {
    if (to <= from) return;
    std::string_view raw_text = text_.substr(from, to - from);
    pending_ += raw_ ? std::string(raw_text) : decode_escapes(raw_text, from, map_);
  }
  void flush() {
    if (pending_.empty()) return;
    FStringPiece piece;
    piece.text = std::move(pending_);
    pieces_.push_back(std::move(piece));
    pending_.clear();
  }
  [[noreturn]] void expecting_brace(size_t open) const {
    map_.fail("SyntaxError: f-string: expecting '}'", open, open + 1,
              "close the replacement field with '}' (write '{{' for a literal brace)");
  }

  // The replacement field opened at `open`; returns the index after its '}'.
  size_t field(size_t open) {
    size_t p = open + 1;
    int depth = 0;
    while (true) {
      if (p >= end_) expecting_brace(open);
      char c = text_[p];
      if (c == '\\') {
        map_.fail("SyntaxError: f-string expression part cannot include a backslash", p, p + 1,
                  "compute the value in a variable before the f-string");
      }
      if (c == '#') {
        map_.fail("SyntaxError: f-string expression part cannot include '#'", p, p + 1,
                  "remove the comment from the replacement field");
      }
      if (c == '\'' || c == '"') {
        size_t close = p + 1;
        while (close < end_ && text_[close] != c) ++close;
        if (close >= end_) {
          map_.fail("SyntaxError: f-string: unterminated string", p, p + 1,
                    "close the string inside the replacement field");
        }
        p = close + 1;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) {
        --depth;
        ++p;
        continue;
      }
      if (depth == 0) {
        if (c == '}' || c == ':' || (c == '!' && ch(p + 1) != '=')) break;
        char prev = p > open + 1 ? text_[p - 1] : '\0';
        if (c == '=' && ch(p + 1) != '=' && prev != '=' && prev != '!' && prev != '<' &&
            prev != '>') {
          break;
        }
        if (c == ')' || c == ']') {
          map_.fail(std::string("SyntaxError: f-string: unmatched '") + c + "'", p, p + 1,
                    "remove it, or add the opening bracket it closes");
        }
      }
      ++p;
    }
    FStringPiece piece;
    piece.is_field = true;
    piece.expr_begin = open + 1;
    piece.expr_end = p;
    if (text_.substr(open + 1, p - open - 1).find_first_not_of(" \t\r\n\f") ==
        std::string_view::npos) {
      map_.fail("SyntaxError: f-string: empty expression not allowed", open, p + 1,
                "put an expression between the braces, or write '{{' for a literal brace");
    }
    bool debug = text_[p] == '=';
    if (debug) {  // `{x=}`: the text of the field, then its value
      ++p;
      while (p < end_ && (text_[p] == ' ' || text_[p] == '\t')) ++p;
      pending_ += std::string(text_.substr(open + 1, p - open - 1));
    }
    if (ch(p) == '!') {
      char conv = ch(p + 1);
      if (conv != 'r' && conv != 's' && conv != 'a') {
        map_.fail("SyntaxError: f-string: invalid conversion character", p, p + 2,
                  "use !r, !s or !a");
      }
      piece.conversion = conv;
      p += 2;
    }
    if (ch(p) == ':') {
      size_t spec = p + 1;
      while (p < end_ && text_[p] != '}') {
        if (text_[p] == '{') {
          map_.fail(
              "NotSupportedError: nested replacement fields in an f-string format spec are not "
              "supported by d2s",
              p, p + 1, "write the format spec literally, e.g. {x:.3f}");
        }
        ++p;
      }
      if (p >= end_) expecting_brace(open);
      std::string_view spec_text = text_.substr(spec, p - spec);
      piece.format_spec = raw_ ? std::string(spec_text) : decode_escapes(spec_text, spec, map_);
    }
    if (ch(p) != '}') expecting_brace(open);
    // Python shows a `{x=}` field by repr unless it has a conversion or a format spec.
    if (debug && piece.conversion == 0 && piece.format_spec.empty()) piece.conversion = 'r';
    flush();
    pieces_.push_back(std::move(piece));
    return p + 1;
  }

  const SourceMap& map_;
  std::string_view text_;
  bool raw_ = false;
  size_t begin_ = 0;
  size_t end_ = 0;
  std::string pending_;
  std::vector<FStringPiece> pieces_;
};

}  // namespace

std::vector<FStringPiece> split_fstring(const Token& tok, const SourceMap& map) {
  return FStringSplitter(tok, map).split();
}

}  // namespace d2s
