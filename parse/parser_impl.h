// The parser's internals, shared by its files (not part of the public API):
//   parser.cpp      token handling, errors, nesting, modules, blocks, compound statements
//   parse_simple.cpp simple statements: assignments and their targets, imports, ...
//   parse_expr.cpp  the Pratt expression parser and postfix chains
//   parse_atom.cpp  atoms: literals, strings and f-strings, brackets, call arguments
//
// Nesting is counted in depth_: one level per block, bracket, unary operator,
// conditional-expression arm, f-string field, elif, and per operator of a left-
// associative chain (`a+b+c` builds a tree as deep as a+(b+(c))). Every recursion
// passes one of those counts or climbs the precedence ladder, so the parser's stack
// and the tree's height are bounded by the limit, whatever the input. Measured worst
// case at the default limit of 200 (input built for the most frames per level): about
// 1 MB of stack in a Debug build and 3 MB under ASan, so parse on a thread with at
// least the usual 8 MB.
#pragma once

#include <deque>
#include <string>

#include "core/base/error.h"
#include "parse/ast.h"
#include "parse/lexer.h"
#include "parse/parser.h"

namespace d2s::detail {

class Parser {
 public:
  Parser(Lexer lexer, const ParseLimits& limits, int depth = 0);

  ast::Module parse_module();
  // An f-string replacement field: an expression list, then the end of the field.
  ast::ExprPtr parse_fstring_field();

  // Precedences of parse_expr.cpp's table that comprehension clauses parse at.
  static constexpr int kOrPrec = 1;
  static constexpr int kBitOrPrec = 5;

 private:
  // Adds `levels` to the nesting depth for its lifetime; throws past the limit.
  class Nest {
   public:
    Nest(Parser& p, const SourceRange& at, int levels = 1);
    ~Nest() { p_.depth_ -= levels_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& p_;
    int levels_;
  };

  // ---- tokens (parser.cpp)
  const Token& peek(size_t k = 0);
  bool at(TokenKind kind) { return peek().is(kind); }
  Token take();
  bool accept(TokenKind kind);
  Token expect(TokenKind kind, const std::string& what);
  void expect_colon(const std::string& statement);
  // The span from `start` to the end of the last token taken, when on one line.
  SourceRange since(const SourceRange& start) const { return SourceRange::span(start, prev_); }

  // ---- errors (parser.cpp)
  [[noreturn]] void fail(const SourceRange& at, const std::string& message,
                         const std::string& hint = {}) const;
  [[noreturn]] void unexpected(const Token& tok, const std::string& expected);
  [[noreturn]] void not_supported(const SourceRange& at, const std::string& what,
                                  const std::string& hint) const;
  [[noreturn]] void fail_nesting(const SourceRange& at) const;
  // Rejects Python statements and expressions outside the subset, by keyword.
  void reject_unsupported_keyword(const Token& tok);

  // ---- statements (parser.cpp)
  void parse_statement(ast::Body& out);
  void parse_block(ast::Body& out, const Token& keyword, const std::string& what);
  ast::StmtPtr parse_decorated();
  ast::StmtPtr parse_def(std::vector<ast::ExprPtr> decorators);
  // Parameters up to `end` (')' for a def, ':' for a lambda), which is left unread.
  void parse_params(ast::FunctionDef& def, TokenKind end = TokenKind::RParen);
  ast::StmtPtr parse_class(std::vector<ast::ExprPtr> decorators);
  ast::StmtPtr parse_if();
  ast::StmtPtr parse_for();
  ast::StmtPtr parse_while();
  ast::StmtPtr parse_with();
  ast::StmtPtr parse_try();  // parse_exceptions.cpp
  void reject_loop_else(const char* loop);

  // ---- simple statements (parse_simple.cpp)
  void parse_simple_line(ast::Body& out);
  ast::StmtPtr parse_simple();
  ast::StmtPtr parse_expr_statement();
  ast::StmtPtr parse_import();
  ast::StmtPtr parse_from_import();
  std::string parse_dotted_name(SourceRange& range);
  // del, raise, global (parse_exceptions.cpp)
  ast::StmtPtr parse_del();
  ast::StmtPtr parse_raise();
  ast::StmtPtr parse_global();
  enum class TargetUse { Assign, AugAssign, AnnAssign, For };
  void check_target(const ast::Expr& target, TargetUse use) const;

  // ---- expressions (parse_expr.cpp)
  ast::ExprPtr parse_exprlist();
  ast::ExprPtr parse_expr();
  ast::ExprPtr parse_binary(int min_prec);
  ast::ExprPtr parse_prefix(int min_prec);
  ast::ExprPtr parse_postfix(ast::ExprPtr value, const SourceRange& start);
  ast::ExprPtr parse_target_list();
  bool starts_expression(const Token& tok) const;

  // ---- atoms (parse_atom.cpp)
  ast::ExprPtr parse_atom();
  ast::ExprPtr parse_parens();
  ast::ExprPtr parse_list();
  ast::ExprPtr parse_strings();
  void append_fstring(ast::FString& out, const Token& tok);
  void parse_call_args(ast::Call& call);
  ast::ExprPtr parse_subscript_item();

  // ---- lambdas, comprehensions, dict and set displays (parse_functional.cpp)
  ast::ExprPtr parse_lambda();
  ast::ExprPtr parse_braces();
  ast::ExprPtr parse_comprehension(ast::CompKind kind, ast::ExprPtr elt, const SourceRange& start);
  void parse_comp_clauses(ast::Comp& comp);

  Lexer lexer_;
  std::deque<Token> ahead_;
  SourceRange prev_;  // the last token taken
  ParseLimits limits_;
  int depth_;
  int loop_depth_ = 0;  // loops around the current statement, inside its function
  bool in_function_ = false;
};

// Python's name for an expression kind in "cannot assign to ..." messages.
const char* expr_description(const ast::Expr& e);

}  // namespace d2s::detail
