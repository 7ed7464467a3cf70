// The lexer: token streams with layout tokens, ranges, literals and lexing errors.
#include "parse/lexer.h"

#include <gtest/gtest.h>

#include "parse/tests/parse_test_util.h"

namespace d2s {
namespace {

using testing::source;

// The token stream as one line: names, numbers and fixed spellings as written,
// strings quoted, layout tokens in capitals.
std::string stream(const std::string& text) {
  std::string out;
  for (const Token& t : tokenize(source(text))) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case TokenKind::Newline:
        out += "NEWLINE";
        break;
      case TokenKind::Indent:
        out += "INDENT";
        break;
      case TokenKind::Dedent:
        out += "DEDENT";
        break;
      case TokenKind::EndOfFile:
        out += "EOF";
        break;
      case TokenKind::Name:
      case TokenKind::Int:
      case TokenKind::Float:
        out += t.text;
        break;
      case TokenKind::String:
        out += "'" + t.text + "'";
        break;
      case TokenKind::FString:
        out += "FSTRING";
        break;
      default:
        out += std::string(token_spelling(t.kind));
    }
  }
  return out;
}

std::string lex_error(const std::string& text) {
  try {
    tokenize(source(text));
  } catch (const Error& e) {
    return e.format();
  }
  return "no error";
}

TEST(Lexer, SimpleStatement) {
  EXPECT_EQ(stream("x = foo(a, 1)\n"), "x = foo ( a , 1 ) NEWLINE EOF");
}

TEST(Lexer, EmptyAndBlankInputs) {
  EXPECT_EQ(stream(""), "EOF");
  EXPECT_EQ(stream("\n\n   \n# only a comment\n"), "EOF");
  EXPECT_EQ(stream("x"), "x NEWLINE EOF");  // no final newline
}

TEST(Lexer, IndentAndDedent) {
  const char* text =
      "def f(x):\n"
      "    if x:\n"
      "        return 1\n"
      "\n"
      "      # a comment at another indentation is ignored\n"
      "    return 2\n"
      "y = 3\n";
  EXPECT_EQ(stream(text),
            "def f ( x ) : NEWLINE INDENT if x : NEWLINE INDENT return 1 NEWLINE DEDENT return 2 "
            "NEWLINE DEDENT y = 3 NEWLINE EOF");
}

TEST(Lexer, SeveralDedentsAtOnceAndAtEndOfFile) {
  EXPECT_EQ(stream("if a:\n  if b:\n    c\nd\n"),
            "if a : NEWLINE INDENT if b : NEWLINE INDENT c NEWLINE DEDENT DEDENT d NEWLINE EOF");
  EXPECT_EQ(stream("if a:\n  if b:\n    c"),
            "if a : NEWLINE INDENT if b : NEWLINE INDENT c NEWLINE DEDENT DEDENT EOF");
}

TEST(Lexer, NewlinesInsideBracketsAndContinuations) {
  EXPECT_EQ(stream("x = f(a,\n      b)\n"), "x = f ( a , b ) NEWLINE EOF");
  EXPECT_EQ(stream("x = [1,\n\n  # c\n 2]\n"), "x = [ 1 , 2 ] NEWLINE EOF");
  EXPECT_EQ(stream("x = a + \\\n    b\ny\n"), "x = a + b NEWLINE y NEWLINE EOF");
}

TEST(Lexer, CrLfLineEndingsAndByteOrderMark) {
  EXPECT_EQ(stream("if a:\r\n  b\r\n"), "if a : NEWLINE INDENT b NEWLINE DEDENT EOF");
  EXPECT_EQ(stream("\xEF\xBB\xBFx = 1\n"), "x = 1 NEWLINE EOF");
}

TEST(Lexer, OperatorsTakeTheLongestMatch) {
  EXPECT_EQ(stream("a //= b ** c -> d != e <= f >> g @= h ... i := j **= k\n"),
            "a //= b ** c -> d != e <= f >> g @= h ... i := j **= k NEWLINE EOF");
  EXPECT_EQ(stream("a<<=b>>=c//d\n"), "a <<= b >>= c // d NEWLINE EOF");
}

TEST(Lexer, KeywordsAreNotNames) {
  auto toks = tokenize(source("if not x is None and y in z or lambda\n"));
  EXPECT_EQ(toks[0].kind, TokenKind::KwIf);
  EXPECT_EQ(toks[1].kind, TokenKind::KwNot);
  EXPECT_EQ(toks[2].kind, TokenKind::Name);
  EXPECT_EQ(toks[3].kind, TokenKind::KwIs);
  EXPECT_EQ(toks[4].kind, TokenKind::KwNone);
  EXPECT_EQ(toks[5].kind, TokenKind::KwAnd);
  EXPECT_EQ(toks[7].kind, TokenKind::KwIn);
  EXPECT_EQ(toks[9].kind, TokenKind::KwOr);
  EXPECT_EQ(toks[10].kind, TokenKind::KwLambda);
  EXPECT_TRUE(is_keyword(TokenKind::KwLambda));
  EXPECT_FALSE(is_keyword(TokenKind::Name));
  EXPECT_EQ(token_kind_name(TokenKind::KwDef), "'def'");
  EXPECT_EQ(token_kind_name(TokenKind::Newline), "newline");
}

TEST(Lexer, TokenRanges) {
  auto toks = tokenize(source("def f(x):\n    return torch.mm(W_h, x)\n"));
  // def f ( x ) : NEWLINE INDENT return torch . mm ( W_h ...
  EXPECT_EQ(toks[0].range.line, 1);
  EXPECT_EQ(toks[0].range.col, 1);
  EXPECT_EQ(toks[0].range.len, 3);
  EXPECT_EQ(toks[6].kind, TokenKind::Newline);
  EXPECT_EQ(toks[6].range.col, 10);
  EXPECT_EQ(toks[7].kind, TokenKind::Indent);
  EXPECT_EQ(toks[7].range.line, 2);
  EXPECT_EQ(toks[7].range.col, 1);
  EXPECT_EQ(toks[7].range.len, 4);  // the indentation itself
  const Token& w = toks[13];
  EXPECT_EQ(w.text, "W_h");
  EXPECT_EQ(w.range.line, 2);
  EXPECT_EQ(w.range.col, 21);
  EXPECT_EQ(w.range.len, 3);
  EXPECT_EQ(w.range.file->path(), "m.py");
}

TEST(Lexer, MultiLineTokenRangeIsClippedToItsFirstLine) {
  auto toks = tokenize(source("x = \"\"\"ab\ncd\"\"\"\n"));
  EXPECT_EQ(toks[2].kind, TokenKind::String);
  EXPECT_EQ(toks[2].text, "ab\ncd");
  EXPECT_EQ(toks[2].range.line, 1);
  EXPECT_EQ(toks[2].range.col, 5);
  EXPECT_EQ(toks[2].range.len, 5);
  EXPECT_EQ(toks[3].kind, TokenKind::Newline);
  EXPECT_EQ(toks[3].range.line, 2);
}

TEST(Lexer, Integers) {
  auto toks = tokenize(source("0 42 1_000_000 0x_ff 0XAB 0o17 0b1010 9223372036854775807 00\n"));
  std::vector<int64_t> want = {0, 42, 1000000, 255, 171, 15, 10, 9223372036854775807LL, 0};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokenKind::Int) << i;
    EXPECT_EQ(toks[i].int_value, want[i]) << toks[i].text;
  }
}

TEST(Lexer, Floats) {
  auto toks = tokenize(source("1. .5 1e-3 2.5E+2 1_0.2_5 3e2 0.0\n"));
  std::vector<double> want = {1.0, 0.5, 1e-3, 250.0, 10.25, 300.0, 0.0};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokenKind::Float) << i;
    EXPECT_DOUBLE_EQ(toks[i].float_value, want[i]) << toks[i].text;
  }
  EXPECT_EQ(stream("x.y 1 .5\n"), "x . y 1 .5 NEWLINE EOF");
}

TEST(Lexer, Strings) {
  auto toks = tokenize(source(
      "'a' \"b\" '''c'd''' \"\"\"e\"\"\" r'\\n' u'x' 'it\\'s' \"\\x41\\u00e9\\t\\101\\q\"\n"));
  std::vector<std::string> want = {"a", "b", "c'd", "e", "\\n", "x", "it's", "A\xC3\xA9\tA\\q"};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokenKind::String) << i;
    EXPECT_EQ(toks[i].text, want[i]) << i;
  }
}

TEST(Lexer, StringsKeepNonAsciiBytesAndJoinEscapedNewlines) {
  auto toks = tokenize(source("s = 'caf\xC3\xA9 \\\nok'  # comment \xE2\x9C\x93\n"));
  EXPECT_EQ(toks[2].text, "caf\xC3\xA9 ok");
}

TEST(Lexer, FStringSplitsIntoPiecesWithFieldOffsets) {
  auto file = source("f'h={h.shape!r:>10} {{x}} {n + 1}'\n");
  Lexer lexer(file);
  Token tok = lexer.next();
  ASSERT_EQ(tok.kind, TokenKind::FString);
  auto pieces = split_fstring(tok, *lexer.map());
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0].text, "h=");
  EXPECT_TRUE(pieces[1].is_field);
  EXPECT_EQ(file->text().substr(pieces[1].expr_begin, pieces[1].expr_end - pieces[1].expr_begin),
            "h.shape");
  EXPECT_EQ(pieces[1].conversion, 'r');
  EXPECT_EQ(pieces[1].format_spec, ">10");
  EXPECT_EQ(pieces[2].text, " {x} ");
  EXPECT_EQ(file->text().substr(pieces[3].expr_begin, pieces[3].expr_end - pieces[3].expr_begin),
            "n + 1");
}

TEST(Lexer, FStringSelfDocumentingField) {
  auto file = source("f'{x = }'\n");
  Lexer lexer(file);
  Token tok = lexer.next();
  auto pieces = split_fstring(tok, *lexer.map());
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].text, "x = ");
  EXPECT_EQ(pieces[1].conversion, 'r');
}

TEST(Lexer, ErrorTabInIndentation) {
  EXPECT_EQ(lex_error("if x:\n\ty = 1\n"),
            "m.py:2:1: error: TabError: indentation contains a tab\n"
            "    \ty = 1\n"
            "    ^\n"
            "hint: d2s requires spaces for indentation; replace each tab with spaces (4 per "
            "level)\n");
  EXPECT_EQ(lex_error("x = 1\t# tabs between tokens are fine\n"), "no error");
}

TEST(Lexer, ErrorInconsistentDedent) {
  EXPECT_EQ(lex_error("if x:\n    a\n  b\n"),
            "m.py:3:3: error: IndentationError: unindent does not match any outer indentation "
            "level\n"
            "      b\n"
            "      ^\n"
            "hint: line this statement up with the block it belongs to (the indentation of an "
            "earlier line)\n");
}

TEST(Lexer, ErrorUnknownCharacter) {
  EXPECT_EQ(lex_error("x = a $ b\n"),
            "m.py:1:7: error: SyntaxError: invalid character '$' (U+0024)\n"
            "    x = a $ b\n"
            "          ^\n"
            "hint: this character has no meaning outside strings and comments\n");
  EXPECT_NE(
      lex_error("x = a ? b\n").find("m.py:1:7: error: SyntaxError: invalid character '?' (U+003F)"),
      std::string::npos);
  EXPECT_NE(lex_error("x = \xC3\xA9\n").find("invalid character '\xC3\xA9' (U+00E9)"),
            std::string::npos);
  EXPECT_NE(lex_error("x = a ! b\n").find("unexpected '!'"), std::string::npos);
  EXPECT_NE(lex_error("x = 1\ry = 2\n").find("invalid character '\\r'"), std::string::npos);
  EXPECT_NE(lex_error("x = \x01\n").find("invalid non-printable character U+0001"),
            std::string::npos);
}

TEST(Lexer, ErrorNulAndInvalidUtf8) {
  std::string nul("x = 1\n\0\n", 8);
  EXPECT_NE(lex_error(nul).find("m.py:2:1: error: SyntaxError: source code cannot contain null "
                                "bytes"),
            std::string::npos);
  EXPECT_NE(lex_error("# ok\ns = '\xFF'\n")
                .find("m.py:2:6: error: SyntaxError: the file is not valid UTF-8 (byte 0xFF)"),
            std::string::npos);
  EXPECT_NE(lex_error("\xC3").find("not valid UTF-8 (byte 0xC3)"), std::string::npos);
  EXPECT_NE(lex_error("\xED\xA0\x80").find("not valid UTF-8"), std::string::npos);  // surrogate
  EXPECT_NE(lex_error("\xC0\xAF").find("not valid UTF-8"), std::string::npos);      // overlong
}

TEST(Lexer, ErrorUnterminatedStrings) {
  EXPECT_EQ(lex_error("x = 'abc\ny = 1\n"),
            "m.py:1:5: error: SyntaxError: unterminated string literal (detected at line 1)\n"
            "    x = 'abc\n"
            "        ^~~~\n"
            "hint: close the string with ' on the same line, or use a triple-quoted string for "
            "several lines\n");
  EXPECT_EQ(lex_error("x = '''abc\n\n"),
            "m.py:1:5: error: SyntaxError: unterminated triple-quoted string literal (detected "
            "at line 3)\n"
            "    x = '''abc\n"
            "        ^~~~~~\n"
            "hint: close the string with '''\n");
  EXPECT_NE(lex_error("x = 'ab\\").find("unterminated string literal"), std::string::npos);
  EXPECT_NE(lex_error("f'{x").find("unterminated string literal"), std::string::npos);
}

TEST(Lexer, ErrorBadNumbers) {
  EXPECT_NE(lex_error("x = 007\n").find("leading zeros in decimal integer literals"),
            std::string::npos);
  EXPECT_NE(lex_error("x = 1abc\n").find("m.py:1:5: error: SyntaxError: invalid decimal literal"),
            std::string::npos);
  EXPECT_NE(lex_error("x = 1__0\n").find("invalid decimal literal"), std::string::npos);
  EXPECT_NE(lex_error("x = 1_\n").find("invalid decimal literal"), std::string::npos);
  EXPECT_NE(lex_error("x = 0x\n").find("invalid hexadecimal literal"), std::string::npos);
  EXPECT_NE(lex_error("x = 0b2\n").find("invalid binary literal"), std::string::npos);
  EXPECT_NE(lex_error("x = 9223372036854775808\n").find("integer literal is too large"),
            std::string::npos);
  EXPECT_NE(lex_error("x = 1j\n").find("complex literals are not supported by d2s"),
            std::string::npos);
}

TEST(Lexer, ErrorBadEscapesAndPrefixes) {
  EXPECT_EQ(lex_error("s = '\\x4'\n"),
            "m.py:1:6: error: SyntaxError: truncated \\xXX escape\n"
            "    s = '\\x4'\n"
            "         ^~~\n"
            "hint: write \\xXX with exactly 2 hex digits\n");
  EXPECT_NE(lex_error("s = '\\N{BULLET}'\n").find("'\\N{...}' escapes are not supported by d2s"),
            std::string::npos);
  EXPECT_NE(lex_error("s = '\\U00110000'\n").find("illegal Unicode character"), std::string::npos);
  EXPECT_NE(lex_error("s = b'x'\n").find("bytes literals are not supported by d2s"),
            std::string::npos);
}

TEST(Lexer, ErrorBrackets) {
  EXPECT_EQ(lex_error("x = (1,\n  2\n"),
            "m.py:1:5: error: SyntaxError: '(' was never closed\n"
            "    x = (1,\n"
            "        ^\n"
            "hint: close it with ')'\n");
  EXPECT_NE(lex_error("x = a)\n").find("m.py:1:6: error: SyntaxError: unmatched ')'"),
            std::string::npos);
  EXPECT_NE(lex_error("x = [a,\n b)\n")
                .find("closing parenthesis ')' does not match opening parenthesis '[' on line 1"),
            std::string::npos);
}

TEST(Lexer, ErrorContinuation) {
  EXPECT_NE(lex_error("x = 1 \\ y\n").find("unexpected character after line continuation"),
            std::string::npos);
  EXPECT_NE(lex_error("x = 1 \\").find("unexpected end of file after line continuation"),
            std::string::npos);
}

TEST(Lexer, EndOfFileRepeats) {
  Lexer lexer(source("x"));
  for (int i = 0; i < 3; ++i) lexer.next();  // x NEWLINE EOF
  EXPECT_EQ(lexer.next().kind, TokenKind::EndOfFile);
  EXPECT_EQ(lexer.next().kind, TokenKind::EndOfFile);
}

}  // namespace
}  // namespace d2s
