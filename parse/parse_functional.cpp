// Lambdas, comprehensions (list, set, dict, generator), dict and set displays: the
// expression forms published model code writes for small functions and collections.
#include "parse/parser_impl.h"

namespace d2s::detail {

// lambda [param (',' param)*]: expr — params are NAME ['=' expr], '*' NAME, '**' NAME.
ast::ExprPtr Parser::parse_lambda() {
  Token kw = take();
  Nest nest(*this, kw.range);
  auto lambda = std::make_unique<ast::Lambda>(kw.range);
  lambda->def = std::make_unique<ast::FunctionDef>(kw.range);
  lambda->def->name = "<lambda>";
  lambda->def->name_range = kw.range;
  parse_params(*lambda->def, TokenKind::Colon);
  expect(TokenKind::Colon, "':' after the lambda's parameters");
  ast::ExprPtr body = parse_expr();
  auto ret = std::make_unique<ast::Return>(body->range);
  ret->value = std::move(body);
  lambda->def->body.push_back(std::move(ret));
  lambda->range = since(kw.range);
  return lambda;
}

// ('for' targets 'in' or_expr ('if' or_expr)*)+ after the item of a comprehension.
void Parser::parse_comp_clauses(ast::Comp& comp) {
  while (at(TokenKind::KwFor)) {
    Token kw = take();
    Nest nest(*this, kw.range);
    ast::CompFor clause;
    clause.target = parse_target_list();
    check_target(*clause.target, TargetUse::For);
    expect(TokenKind::KwIn, "'in' after the comprehension's variable");
    clause.iter = parse_binary(kOrPrec);
    while (at(TokenKind::KwIf)) {
      take();
      clause.ifs.push_back(parse_binary(kOrPrec));
    }
    comp.generators.push_back(std::move(clause));
  }
}

ast::ExprPtr Parser::parse_comprehension(ast::CompKind kind, ast::ExprPtr elt,
                                         const SourceRange& start) {
  auto comp = std::make_unique<ast::Comp>(start, kind);
  comp->elt = std::move(elt);
  parse_comp_clauses(*comp);
  comp->range = since(start);
  return comp;
}

// '{' '}' | '{' key ':' value (',' ...)* '}' | '{' expr (',' expr)* '}' and the
// comprehension forms of both; `**d` spreads a dict into a dict display.
ast::ExprPtr Parser::parse_braces() {
  Token open = take();
  Nest nest(*this, open.range);
  if (accept(TokenKind::RBrace)) return std::make_unique<ast::DictExpr>(since(open.range));
  bool is_dict = at(TokenKind::DoubleStar);
  ast::ExprPtr first_key;
  ast::ExprPtr first_value;
  if (is_dict) {
    take();
    first_value = parse_binary(kBitOrPrec);
  } else {
    first_key = parse_expr();
    if (accept(TokenKind::Colon)) {
      is_dict = true;
      first_value = parse_expr();
    }
  }
  if (at(TokenKind::KwFor)) {
    if (is_dict && !first_key) unexpected(peek(), "'}' after '**' in a dict comprehension");
    ast::ExprPtr comp = parse_comprehension(is_dict ? ast::CompKind::Dict : ast::CompKind::Set,
                                            std::move(first_key), open.range);
    comp->as<ast::Comp>().value = std::move(first_value);
    expect(TokenKind::RBrace, "'}' to end the comprehension");
    comp->range = since(open.range);
    return comp;
  }
  if (!is_dict) {
    auto set = std::make_unique<ast::SetExpr>(open.range);
    set->elts.push_back(std::move(first_key));
    while (accept(TokenKind::Comma)) {
      if (at(TokenKind::RBrace)) break;
      set->elts.push_back(parse_expr());
    }
    expect(TokenKind::RBrace, "',' or '}' in the set");
    set->range = since(open.range);
    return set;
  }
  auto dict = std::make_unique<ast::DictExpr>(open.range);
  dict->keys.push_back(std::move(first_key));
  dict->values.push_back(std::move(first_value));
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::RBrace)) break;
    if (accept(TokenKind::DoubleStar)) {
      dict->keys.push_back(nullptr);
      dict->values.push_back(parse_binary(kBitOrPrec));
      continue;
    }
    dict->keys.push_back(parse_expr());
    expect(TokenKind::Colon, "':' after the dict key");
    dict->values.push_back(parse_expr());
  }
  expect(TokenKind::RBrace, "',' or '}' in the dict");
  dict->range = since(open.range);
  return dict;
}

}  // namespace d2s::detail
