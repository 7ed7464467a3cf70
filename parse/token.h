// Tokens of the model language: a kind plus a range into the shared source text.
//
// Every kind is listed once, in the tables below (as TorchScript's
// TC_FORALL_TOKEN_KINDS does); the enum, the spellings the lexer matches and the
// names error messages print are all expanded from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/source.h"

namespace d2s {

// Tokens without a fixed spelling: _(Kind, "how messages name it").
#define D2S_FORALL_SPECIAL_TOKENS(_) \
  _(EndOfFile, "end of file")        \
  _(Newline, "newline")              \
  _(Indent, "indent")                \
  _(Dedent, "dedent")                \
  _(Name, "name")                    \
  _(Int, "integer")                  \
  _(Float, "float")                  \
  _(String, "string")                \
  _(FString, "f-string")

// Operators and delimiters: _(Kind, "spelling"). The lexer takes the longest match.
#define D2S_FORALL_OPERATORS(_) \
  _(LParen, "(")                \
  _(RParen, ")")                \
  _(LBracket, "[")              \
  _(RBracket, "]")              \
  _(LBrace, "{")                \
  _(RBrace, "}")                \
  _(Comma, ",")                 \
  _(Colon, ":")                 \
  _(Semicolon, ";")             \
  _(Dot, ".")                   \
  _(Ellipsis, "...")            \
  _(At, "@")                    \
  _(Assign, "=")                \
  _(Arrow, "->")                \
  _(Walrus, ":=")               \
  _(Plus, "+")                  \
  _(Minus, "-")                 \
  _(Star, "*")                  \
  _(Slash, "/")                 \
  _(DoubleSlash, "//")          \
  _(Percent, "%")               \
  _(DoubleStar, "**")           \
  _(Amp, "&")                   \
  _(Pipe, "|")                  \
  _(Caret, "^")                 \
  _(Tilde, "~")                 \
  _(LShift, "<<")               \
  _(RShift, ">>")               \
  _(Eq, "==")                   \
  _(Ne, "!=")                   \
  _(Lt, "<")                    \
  _(Gt, ">")                    \
  _(Le, "<=")                   \
  _(Ge, ">=")                   \
  _(PlusEq, "+=")               \
  _(MinusEq, "-=")              \
  _(StarEq, "*=")               \
  _(SlashEq, "/=")              \
  _(DoubleSlashEq, "//=")       \
  _(PercentEq, "%=")            \
  _(DoubleStarEq, "**=")        \
  _(AtEq, "@=")                 \
  _(AmpEq, "&=")                \
  _(PipeEq, "|=")               \
  _(CaretEq, "^=")              \
  _(LShiftEq, "<<=")            \
  _(RShiftEq, ">>=")

// Every Python 3 keyword: _(Kind, "spelling"). Those outside the subset are still
// keywords, so the parser can say "'lambda' is not supported" instead of treating
// them as names.
#define D2S_FORALL_KEYWORDS(_) \
  _(KwFalse, "False")          \
  _(KwNone, "None")            \
  _(KwTrue, "True")            \
  _(KwAnd, "and")              \
  _(KwAs, "as")                \
  _(KwAssert, "assert")        \
  _(KwAsync, "async")          \
  _(KwAwait, "await")          \
  _(KwBreak, "break")          \
  _(KwClass, "class")          \
  _(KwContinue, "continue")    \
  _(KwDef, "def")              \
  _(KwDel, "del")              \
  _(KwElif, "elif")            \
  _(KwElse, "else")            \
  _(KwExcept, "except")        \
  _(KwFinally, "finally")      \
  _(KwFor, "for")              \
  _(KwFrom, "from")            \
  _(KwGlobal, "global")        \
  _(KwIf, "if")                \
  _(KwImport, "import")        \
  _(KwIn, "in")                \
  _(KwIs, "is")                \
  _(KwLambda, "lambda")        \
  _(KwNonlocal, "nonlocal")    \
  _(KwNot, "not")              \
  _(KwOr, "or")                \
  _(KwPass, "pass")            \
  _(KwRaise, "raise")          \
  _(KwReturn, "return")        \
  _(KwTry, "try")              \
  _(KwWhile, "while")          \
  _(KwWith, "with")            \
  _(KwYield, "yield")

#define D2S_FORALL_TOKENS(_) \
  D2S_FORALL_SPECIAL_TOKENS(_) D2S_FORALL_OPERATORS(_) D2S_FORALL_KEYWORDS(_)

enum class TokenKind : uint8_t {
#define D2S_TOKEN_ENUM(kind, text) kind,
  D2S_FORALL_TOKENS(D2S_TOKEN_ENUM)
#undef D2S_TOKEN_ENUM
};

// How an error message names a kind: "newline", "'+'", "'def'".
std::string token_kind_name(TokenKind kind);
// The fixed spelling of an operator or keyword ("+", "def"); empty for the others.
std::string_view token_spelling(TokenKind kind);
bool is_keyword(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  SourceRange range;  // first line of the token; len clipped to that line
  size_t begin = 0;   // byte offsets [begin, end) in the file's text
  size_t end = 0;
  // Name: the identifier. String: the decoded value. Int/Float: the spelling.
  // FString: empty (the parser splits the raw text, see lexer.h).
  std::string text;
  int64_t int_value = 0;
  double float_value = 0;

  bool is(TokenKind k) const { return kind == k; }
};

// How an error message names this token: "name 'foo'", "'+'", "newline".
std::string describe_token(const Token& tok);

}  // namespace d2s
