// Atoms: names, literals, strings and f-strings, parentheses and lists, and the
// argument list of a call.
#include <set>

#include "parse/parser_impl.h"

namespace d2s::detail {

ast::ExprPtr Parser::parse_atom() {
  const Token& tok = peek();
  switch (tok.kind) {
    case TokenKind::Name: {
      Token name = take();
      return std::make_unique<ast::Name>(name.range, name.text);
    }
    case TokenKind::Int: {
      Token lit = take();
      return std::make_unique<ast::IntLit>(lit.range, lit.int_value);
    }
    case TokenKind::Float: {
      Token lit = take();
      return std::make_unique<ast::FloatLit>(lit.range, lit.float_value);
    }
    case TokenKind::KwTrue:
    case TokenKind::KwFalse: {
      Token lit = take();
      return std::make_unique<ast::BoolLit>(lit.range, lit.is(TokenKind::KwTrue));
    }
    case TokenKind::KwNone:
      return std::make_unique<ast::NoneLit>(take().range);
    case TokenKind::String:
    case TokenKind::FString:
      return parse_strings();
    case TokenKind::LParen:
      return parse_parens();
    case TokenKind::LBracket:
      return parse_list();
    case TokenKind::LBrace:
      return parse_braces();
    case TokenKind::Ellipsis:
      return std::make_unique<ast::EllipsisLit>(take().range);
    default:
      unexpected(tok, "an expression");
  }
}

// '(' [exprlist] ')': a parenthesized expression keeps its own range; a tuple's
// range covers the parentheses.
ast::ExprPtr Parser::parse_parens() {
  Token open = take();
  Nest nest(*this, open.range);
  if (accept(TokenKind::RParen)) return std::make_unique<ast::TupleExpr>(since(open.range));
  ast::ExprPtr first = parse_expr();
  if (at(TokenKind::KwFor)) {
    ast::ExprPtr gen = parse_comprehension(ast::CompKind::Generator, std::move(first), open.range);
    expect(TokenKind::RParen, "')' to end the generator expression");
    gen->range = since(open.range);
    return gen;
  }
  if (!at(TokenKind::Comma)) {
    expect(TokenKind::RParen, "',' or ')'");
    return first;
  }
  auto tuple = std::make_unique<ast::TupleExpr>(open.range);
  tuple->elts.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::RParen)) break;
    tuple->elts.push_back(parse_expr());
  }
  expect(TokenKind::RParen, "',' or ')'");
  tuple->range = since(open.range);
  return tuple;
}

// '[' [expr (',' expr)* [',']] ']'
ast::ExprPtr Parser::parse_list() {
  Token open = take();
  Nest nest(*this, open.range);
  auto list = std::make_unique<ast::ListExpr>(open.range);
  while (!at(TokenKind::RBracket)) {
    list->elts.push_back(parse_expr());
    if (list->elts.size() == 1 && at(TokenKind::KwFor)) {
      ast::ExprPtr comp =
          parse_comprehension(ast::CompKind::List, std::move(list->elts[0]), open.range);
      expect(TokenKind::RBracket, "']' to end the list comprehension");
      comp->range = since(open.range);
      return comp;
    }
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RBracket, "',' or ']'");
  list->range = since(open.range);
  return list;
}

namespace {

void add_literal(ast::FString& out, std::string text) {
  if (text.empty()) return;
  if (!out.parts.empty() && !out.parts.back().expr) {
    out.parts.back().text += text;
    return;
  }
  ast::FStringPart part;
  part.text = std::move(text);
  out.parts.push_back(std::move(part));
}

}  // namespace

// STRING+ | a mix with f-strings: adjacent literals are joined, as in Python.
ast::ExprPtr Parser::parse_strings() {
  SourceRange start = peek().range;
  std::vector<Token> parts;
  bool any_fstring = false;
  while (at(TokenKind::String) || at(TokenKind::FString)) {
    any_fstring |= at(TokenKind::FString);
    parts.push_back(take());
  }
  if (!any_fstring) {
    std::string text;
    for (const Token& t : parts) text += t.text;
    return std::make_unique<ast::StrLit>(since(start), std::move(text));
  }
  auto fstring = std::make_unique<ast::FString>(start);
  for (const Token& t : parts) {
    if (t.is(TokenKind::String)) {
      add_literal(*fstring, t.text);
    } else {
      append_fstring(*fstring, t);
    }
  }
  fstring->range = since(start);
  return fstring;
}

// Each replacement field is parsed by its own parser over the field's bytes, so its
// nodes carry their true line and column in the file.
void Parser::append_fstring(ast::FString& out, const Token& tok) {
  for (FStringPiece& piece : split_fstring(tok, *lexer_.map())) {
    if (!piece.is_field) {
      add_literal(out, std::move(piece.text));
      continue;
    }
    if (depth_ + 1 > limits_.max_nesting) fail_nesting(tok.range);
    Parser field(Lexer(lexer_.map(), piece.expr_begin, piece.expr_end, limits_.max_nesting),
                 limits_, depth_ + 1);
    ast::FStringPart part;
    part.expr = field.parse_fstring_field();
    part.conversion = piece.conversion;
    part.format_spec = std::move(piece.format_spec);
    out.parts.push_back(std::move(part));
  }
}

// args := [arg (',' arg)* [',']];  arg := expr | '*' expr | NAME '=' expr
void Parser::parse_call_args(ast::Call& call) {
  Token open = take();
  Nest nest(*this, open.range);
  std::set<std::string> keyword_names;
  while (!at(TokenKind::RParen)) {
    const Token& tok = peek();
    if (tok.is(TokenKind::DoubleStar)) {
      // `f(**kw)`: spread a dict into keyword arguments (a Keyword without a name).
      Token stars = take();
      ast::Keyword keyword;
      keyword.value = parse_expr();
      keyword.range = since(stars.range);
      call.keywords.push_back(std::move(keyword));
    } else if (tok.is(TokenKind::Star)) {
      // `f(*mods)`: spread an iterable into positional arguments.
      Token star = take();
      ast::ExprPtr value = parse_expr();
      call.args.push_back(std::make_unique<ast::Starred>(since(star.range), std::move(value)));
    } else if (tok.is(TokenKind::Name) && peek(1).is(TokenKind::Assign)) {
      Token name = take();
      take();
      ast::Keyword keyword;
      keyword.name = name.text;
      keyword.value = parse_expr();
      keyword.range = since(name.range);
      if (!keyword_names.insert(name.text).second) {
        fail(keyword.range, "SyntaxError: keyword argument repeated: " + name.text,
             "pass '" + name.text + "' only once");
      }
      call.keywords.push_back(std::move(keyword));
    } else {
      if (!call.keywords.empty()) {
        fail(tok.range, "SyntaxError: positional argument follows keyword argument",
             "put the positional arguments before the keyword arguments");
      }
      ast::ExprPtr arg = parse_expr();
      if (at(TokenKind::KwFor)) {
        // f(x for x in xs): the generator is the only argument, without parentheses.
        SourceRange start = arg->range;
        arg = parse_comprehension(ast::CompKind::Generator, std::move(arg), start);
      }
      if (at(TokenKind::Assign)) {
        fail(arg->range,
             "SyntaxError: expression cannot contain assignment, perhaps you meant \"==\"?",
             "a keyword argument is written name=value with a plain name on the left");
      }
      call.args.push_back(std::move(arg));
    }
    if (!accept(TokenKind::Comma)) break;
  }
  expect(TokenKind::RParen, "',' or ')' in the argument list");
}

}  // namespace d2s::detail
