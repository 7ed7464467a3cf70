// try/except/else/finally, raise [exc [from cause]], del and global.
#include "parse/parser_impl.h"

namespace d2s::detail {

ast::StmtPtr Parser::parse_try() {
  Token keyword = take();
  auto node = std::make_unique<ast::Try>(keyword.range);
  expect_colon("'try'");
  parse_block(node->body, keyword, "'try' statement");
  while (at(TokenKind::KwExcept)) {
    Token except = take();
    ast::ExceptHandler handler;
    handler.range = except.range;
    if (!node->handlers.empty() && !node->handlers.back().type) {
      fail(except.range, "SyntaxError: default 'except:' must be last",
           "move the bare 'except:' after the other handlers");
    }
    if (!at(TokenKind::Colon)) {
      handler.type = parse_expr();
      if (accept(TokenKind::KwAs)) {
        handler.name = expect(TokenKind::Name, "a name after 'as'").text;
      }
    }
    expect_colon("'except'");
    parse_block(handler.body, except, "'except' statement");
    node->handlers.push_back(std::move(handler));
  }
  if (at(TokenKind::KwElse)) {
    Token else_kw = take();
    if (node->handlers.empty()) unexpected(else_kw, "'except' or 'finally'");
    expect_colon("'else'");
    parse_block(node->orelse, else_kw, "'else' statement");
  }
  if (at(TokenKind::KwFinally)) {
    Token fin = take();
    expect_colon("'finally'");
    parse_block(node->finalbody, fin, "'finally' statement");
  }
  if (node->handlers.empty() && node->finalbody.empty()) {
    fail(peek().range, "SyntaxError: expected 'except' or 'finally' block",
         "a 'try' needs at least one 'except' or a 'finally'");
  }
  return node;
}

ast::StmtPtr Parser::parse_del() {
  Token kw = take();
  auto node = std::make_unique<ast::Delete>(kw.range);
  do {
    if (!starts_expression(peek())) break;
    ast::ExprPtr target = parse_binary(kBitOrPrec);
    auto k = target->kind;
    if (k != ast::ExprKind::Name && k != ast::ExprKind::Attribute &&
        k != ast::ExprKind::Subscript && k != ast::ExprKind::Tuple && k != ast::ExprKind::List) {
      fail(target->range, std::string("SyntaxError: cannot delete ") + expr_description(*target),
           "delete a name, an attribute or an item");
    }
    node->targets.push_back(std::move(target));
  } while (accept(TokenKind::Comma));
  if (node->targets.empty()) unexpected(peek(), "a name after 'del'");
  return node;
}

ast::StmtPtr Parser::parse_raise() {
  Token kw = take();
  auto node = std::make_unique<ast::Raise>(kw.range);
  if (starts_expression(peek())) {
    node->exc = parse_expr();
    if (accept(TokenKind::KwFrom)) node->cause = parse_expr();
  }
  return node;
}

ast::StmtPtr Parser::parse_global() {
  Token kw = take();
  auto node = std::make_unique<ast::Global>(kw.range);
  do {
    node->names.push_back(expect(TokenKind::Name, "a name after 'global'").text);
  } while (accept(TokenKind::Comma));
  return node;
}

}  // namespace d2s::detail
