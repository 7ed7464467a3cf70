// An s-expression dump of the AST, for golden tests and debugging.
//
//   x = torch.mm(W, h.t())      (= x (call (. torch mm) W (call (. h t))))
//   if a < b: ...               (if (cmp a < b)
//                                 ...body, one statement a line...
//                                 (else
//                                   (elif TEST ...)))
//
// Expressions: names bare; literals as Python spells them ("..." for strings);
// (. value attr), (call func args... (= name value)...), (sub value indices...),
// (slice lower upper step) with _ for a missing part, (OP lhs rhs), (OP operand)
// for unary operators (-, +, ~, not), (cmp left op right op right...), (and ...),
// (or ...), (ifexp test body orelse), (tuple ...), (list ...),
// (fstr "text" {expr} {expr !r :spec}).
// Statements: (expr E), (= targets... value), (+= target value), (ann target type
// [value]), (if ...), (elif ...), (for target iter ...), (while test ...),
// (return [E]), (assert test [msg]), (pass), (break), (continue),
// (def name (params) [-> type] ...) with params x, (x : T), (x = D), (x : T = D),
// (class name (bases) ...), (decorator E) lines first in def/class,
// (import a.b (c as d)), (from mod import a (b as c)).
#pragma once

#include <string>

#include "parse/ast.h"

namespace d2s {

std::string dump_ast(const ast::Module& module);  // one line per statement, '\n'-ended
std::string dump_stmt(const ast::Stmt& stmt);     // may span lines; no final '\n'
std::string dump_expr(const ast::Expr& expr);     // one line

}  // namespace d2s
