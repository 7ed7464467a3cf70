// Simple statements: pass/break/continue/return/assert, imports, expression
// statements and the assignment family with their target checks.
#include <optional>

#include "parse/parser_impl.h"

namespace d2s::detail {

namespace {

std::optional<ast::BinOpKind> augmented_op(TokenKind kind) {
  switch (kind) {
    case TokenKind::PlusEq:
      return ast::BinOpKind::Add;
    case TokenKind::MinusEq:
      return ast::BinOpKind::Sub;
    case TokenKind::StarEq:
      return ast::BinOpKind::Mul;
    case TokenKind::SlashEq:
      return ast::BinOpKind::Div;
    case TokenKind::DoubleSlashEq:
      return ast::BinOpKind::FloorDiv;
    case TokenKind::PercentEq:
      return ast::BinOpKind::Mod;
    case TokenKind::DoubleStarEq:
      return ast::BinOpKind::Pow;
    case TokenKind::AtEq:
      return ast::BinOpKind::MatMul;
    case TokenKind::AmpEq:
      return ast::BinOpKind::BitAnd;
    case TokenKind::PipeEq:
      return ast::BinOpKind::BitOr;
    case TokenKind::CaretEq:
      return ast::BinOpKind::BitXor;
    case TokenKind::LShiftEq:
      return ast::BinOpKind::LShift;
    case TokenKind::RShiftEq:
      return ast::BinOpKind::RShift;
    default:
      return std::nullopt;
  }
}

}  // namespace

const char* expr_description(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Call:
      return "function call";
    case ast::ExprKind::Int:
    case ast::ExprKind::Float:
    case ast::ExprKind::Str:
      return "literal";
    case ast::ExprKind::Bool:
      return e.as<ast::BoolLit>().value ? "True" : "False";
    case ast::ExprKind::None:
      return "None";
    case ast::ExprKind::FString:
      return "f-string expression";
    case ast::ExprKind::Compare:
      return "comparison";
    case ast::ExprKind::IfExp:
      return "conditional expression";
    case ast::ExprKind::Tuple:
      return "tuple";
    case ast::ExprKind::List:
      return "list";
    case ast::ExprKind::Name:
      return "name";
    case ast::ExprKind::Attribute:
      return "attribute";
    case ast::ExprKind::Subscript:
      return "subscript";
    default:
      return "expression";
  }
}

// simple (';' simple)* NEWLINE
void Parser::parse_simple_line(ast::Body& out) {
  while (true) {
    out.push_back(parse_simple());
    if (!accept(TokenKind::Semicolon)) break;
    if (at(TokenKind::Newline) || at(TokenKind::EndOfFile)) break;
  }
  if (at(TokenKind::EndOfFile)) return;
  if (!at(TokenKind::Newline)) {
    if (at(TokenKind::Colon)) {
      fail(peek().range, "SyntaxError: invalid syntax: unexpected ':'",
           "only def, class, if, elif, else, for and while lines end with ':'");
    }
    unexpected(peek(), "the end of the line");
  }
  take();
}

ast::StmtPtr Parser::parse_simple() {
  const Token& tok = peek();
  switch (tok.kind) {
    case TokenKind::KwPass:
      return std::make_unique<ast::Pass>(take().range);
    case TokenKind::KwBreak:
    case TokenKind::KwContinue: {
      Token kw = take();
      if (loop_depth_ == 0) {
        bool is_break = kw.is(TokenKind::KwBreak);
        fail(kw.range,
             is_break ? "SyntaxError: 'break' outside loop"
                      : "SyntaxError: 'continue' not properly in loop",
             std::string("use '") + (is_break ? "break" : "continue") +
                 "' only inside the body of a 'for' or 'while' loop");
      }
      if (kw.is(TokenKind::KwBreak)) return std::make_unique<ast::Break>(kw.range);
      return std::make_unique<ast::Continue>(kw.range);
    }
    case TokenKind::KwReturn: {
      Token kw = take();
      if (!in_function_) {
        fail(kw.range, "SyntaxError: 'return' outside function",
             "use 'return' only inside a 'def'; top-level statements end without one");
      }
      auto ret = std::make_unique<ast::Return>(kw.range);
      if (starts_expression(peek())) ret->value = parse_exprlist();
      return ret;
    }
    case TokenKind::KwAssert: {
      Token kw = take();
      auto node = std::make_unique<ast::Assert>(kw.range);
      node->test = parse_expr();
      if (accept(TokenKind::Comma)) node->msg = parse_expr();
      return node;
    }
    case TokenKind::KwImport:
      return parse_import();
    case TokenKind::KwDel:
      return parse_del();
    case TokenKind::KwRaise:
      return parse_raise();
    case TokenKind::KwGlobal:
      return parse_global();
    case TokenKind::KwFrom:
      return parse_from_import();
    case TokenKind::KwDef:
    case TokenKind::KwClass:
    case TokenKind::KwIf:
    case TokenKind::KwFor:
    case TokenKind::KwWhile:
    case TokenKind::KwElif:
    case TokenKind::KwElse:
      fail(tok.range,
           "SyntaxError: invalid syntax: '" + std::string(token_spelling(tok.kind)) +
               "' must start its own line",
           "put the '" + std::string(token_spelling(tok.kind)) + "' on a new line");
    default:
      reject_unsupported_keyword(tok);
      return parse_expr_statement();
  }
}

// exprlist (('=' exprlist)+ | augop exprlist | ':' expr ['=' exprlist])?
ast::StmtPtr Parser::parse_expr_statement() {
  ast::ExprPtr first = parse_exprlist();
  SourceRange range = first->range;
  if (at(TokenKind::Assign)) {
    auto assign = std::make_unique<ast::Assign>(range);
    ast::ExprPtr value = std::move(first);
    while (accept(TokenKind::Assign)) {
      assign->targets.push_back(std::move(value));
      reject_unsupported_keyword(peek());  // `x = yield`, `x = lambda: 0`
      value = parse_exprlist();
    }
    for (const ast::ExprPtr& target : assign->targets) check_target(*target, TargetUse::Assign);
    assign->value = std::move(value);
    return assign;
  }
  if (auto op = augmented_op(peek().kind)) {
    Token op_tok = take();
    check_target(*first, TargetUse::AugAssign);
    auto aug = std::make_unique<ast::AugAssign>(range);
    aug->target = std::move(first);
    aug->op = *op;
    aug->op_range = op_tok.range;
    aug->value = parse_exprlist();
    return aug;
  }
  if (at(TokenKind::Colon)) {
    bool single = first->kind == ast::ExprKind::Name || first->kind == ast::ExprKind::Attribute ||
                  first->kind == ast::ExprKind::Subscript;
    if (!single) check_target(*first, TargetUse::AnnAssign);
    take();
    auto ann = std::make_unique<ast::AnnAssign>(range);
    ann->target = std::move(first);
    ann->annotation = parse_expr();
    if (accept(TokenKind::Assign)) ann->value = parse_exprlist();
    return ann;
  }
  return std::make_unique<ast::ExprStmt>(range, std::move(first));
}

// Targets are names, attributes and subscripts; for '=' and 'for' also tuples and
// lists of targets. The wording follows CPython's.
void Parser::check_target(const ast::Expr& target, TargetUse use) const {
  switch (target.kind) {
    case ast::ExprKind::Name:
      return;
    case ast::ExprKind::Attribute:
    case ast::ExprKind::Subscript:
      // Python allows `for self.x in ...`; the AST promises loop targets of names.
      if (use == TargetUse::For) {
        bool attribute = target.kind == ast::ExprKind::Attribute;
        not_supported(
            target.range,
            std::string(attribute ? "an attribute" : "a subscript") + " as a loop variable",
            "loop over a plain name and assign it inside the body");
      }
      return;
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List:
      if (use == TargetUse::Assign || use == TargetUse::For) {
        const auto& elts = target.kind == ast::ExprKind::Tuple ? target.as<ast::TupleExpr>().elts
                                                               : target.as<ast::ListExpr>().elts;
        for (const ast::ExprPtr& e : elts) check_target(*e, use);
        return;
      }
      break;
    default:
      break;
  }
  std::string what = expr_description(target);
  switch (use) {
    case TargetUse::AugAssign:
      fail(target.range,
           "SyntaxError: '" + what + "' is an illegal expression for augmented assignment",
           "the left side of an augmented assignment must be a name, attribute or subscript");
    case TargetUse::AnnAssign:
      if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List) {
        fail(target.range, "SyntaxError: only single target (not " + what + ") can be annotated",
             "annotate each name in its own statement");
      }
      fail(target.range, "SyntaxError: illegal target for annotation",
           "annotate a name, e.g. 'n: int = 3'");
    case TargetUse::For:
      fail(target.range, "SyntaxError: cannot assign to " + what,
           "the loop variable must be a name or a tuple of names");
    case TargetUse::Assign:
      break;
  }
  fail(target.range,
       "SyntaxError: cannot assign to " + what + " here. Maybe you meant '==' instead of '='?",
       "the left side of '=' must be a name, attribute, subscript or a tuple of those");
}

// --------------------------------------------------------------------- imports

std::string Parser::parse_dotted_name(SourceRange& range) {
  Token first = expect(TokenKind::Name, "a module name");
  std::string name = first.text;
  while (accept(TokenKind::Dot)) name += "." + expect(TokenKind::Name, "a name after '.'").text;
  range = since(first.range);
  return name;
}

// 'import' dotted ['as' NAME] (',' dotted ['as' NAME])*
ast::StmtPtr Parser::parse_import() {
  Token kw = take();
  auto node = std::make_unique<ast::Import>(kw.range);
  do {
    ast::ImportAlias alias;
    alias.name = parse_dotted_name(alias.range);
    if (accept(TokenKind::KwAs)) alias.asname = expect(TokenKind::Name, "a name after 'as'").text;
    alias.range = since(alias.range);
    node->names.push_back(std::move(alias));
  } while (accept(TokenKind::Comma));
  return node;
}

// 'from' dotted 'import' NAME ['as' NAME] (',' NAME ['as' NAME])*, optionally in ( ).
ast::StmtPtr Parser::parse_from_import() {
  Token kw = take();
  auto node = std::make_unique<ast::ImportFrom>(kw.range);
  if (at(TokenKind::Dot) || at(TokenKind::Ellipsis)) {
    not_supported(peek().range, "a relative import", "import from an absolute module name");
  }
  SourceRange module_range;
  node->module = parse_dotted_name(module_range);
  expect(TokenKind::KwImport, "'import' after the module name");
  if (at(TokenKind::Star)) {
    not_supported(peek().range, "'from ... import *'", "import the names you use one by one");
  }
  bool parens = accept(TokenKind::LParen);
  while (true) {
    Token name = expect(TokenKind::Name, "a name to import");
    ast::ImportAlias alias;
    alias.name = name.text;
    if (accept(TokenKind::KwAs)) alias.asname = expect(TokenKind::Name, "a name after 'as'").text;
    alias.range = since(name.range);
    node->names.push_back(std::move(alias));
    if (!accept(TokenKind::Comma)) break;
    if (parens && at(TokenKind::RParen)) break;
    if (!parens && (at(TokenKind::Newline) || at(TokenKind::EndOfFile))) {
      fail(prev_, "SyntaxError: trailing comma not allowed without surrounding parentheses",
           "remove the comma, or put the names in ( )");
    }
  }
  if (parens) expect(TokenKind::RParen, "',' or ')' after the imported names");
  return node;
}

}  // namespace d2s::detail
