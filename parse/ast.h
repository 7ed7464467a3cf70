// The AST of the model language (contract §1), as the parser builds it.
//
// Grammar (a subset of Python 3; INDENT/DEDENT come from the lexer):
//
//   module     := (NEWLINE | stmt)* EOF
//   stmt       := simple (';' simple)* NEWLINE | compound
//   compound   := decorator* (funcdef | classdef) | if | for | while
//   decorator  := '@' expr NEWLINE                      -- accepted and ignored
//   funcdef    := 'def' NAME '(' [param (',' param)* [',']] ')' ['->' expr] ':' block
//   param      := NAME [':' expr] ['=' expr]
//   classdef   := 'class' NAME ['(' [expr (',' expr)*] ')'] ':' block
//   if         := 'if' expr ':' block ('elif' expr ':' block)* ['else' ':' block]
//   for        := 'for' targets 'in' expr ':' block
//   while      := 'while' expr ':' block
//   block      := simple_line | NEWLINE INDENT stmt+ DEDENT
//   simple     := 'pass' | 'break' | 'continue' | 'return' [exprlist]
//               | 'assert' expr [',' expr]
//               | 'import' dotted ['as' NAME] (',' dotted ['as' NAME])*
//               | 'from' dotted 'import' NAME ['as' NAME] (',' NAME ['as' NAME])*
//               | exprlist (('=' exprlist)+ | augop exprlist | ':' expr ['=' exprlist])?
//   augop      := '+=' | '-=' | '*=' | '/=' | '@=' | '//=' | '%=' | '**='
//   exprlist   := expr (',' expr)* [',']               -- a tuple when it has a comma
//   expr       := or_expr ['if' or_expr 'else' expr]
//   or_expr    := and_expr ('or' and_expr)*
//   and_expr   := not_expr ('and' not_expr)*
//   not_expr   := 'not' not_expr | comparison
//   comparison := arith (('<'|'>'|'=='|'>='|'<='|'!='|'is' ['not']|['not'] 'in') arith)*
//   arith      := binary operators by precedence, lowest first:
//                 '|'  '^'  '&'  ('<<' '>>')  ('+' '-')  ('*' '/' '//' '%' '@')
//                 unary ('-' '+' '~')  '**' (right-assoc, binds tighter than unary on its left)
//   postfix    := atom ('.' NAME | '(' args ')' | '[' subscripts ']')*
//   args       := [arg (',' arg)* [',']];  arg := expr | '*' expr | NAME '=' expr
//   subscripts := subscript (',' subscript)* [',']
//   subscript  := expr | [expr] ':' [expr] [':' [expr]]
//   atom       := NAME | INT | FLOAT | STRING+ | FSTRING | 'True' | 'False' | 'None'
//               | '(' [exprlist] ')' | '[' [expr (',' expr)* [',']] ']'
//
// Every node has the SourceRange of the text it came from. Nodes are owned by
// their parent through unique_ptr; the tree's depth is bounded by the parser's
// nesting limit, so walking it recursively is safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/base/source.h"

namespace d2s::ast {

// ---------------------------------------------------------------- expressions

enum class ExprKind {
  Name,       // x
  Int,        // 3
  Float,      // 0.5
  Bool,       // True
  None,       // None
  Str,        // "text" (adjacent literals joined)
  FString,    // f"h={h.shape}"
  Attribute,  // x.shape
  Call,       // f(a, b=1)
  Subscript,  // x[0, 1:3]
  Slice,      // 1:3:2 (only inside Subscript)
  BinOp,      // a + b
  UnaryOp,    // -a, not a, ~a, +a
  Compare,    // a < b <= c
  BoolOp,     // a and b and c
  IfExp,      // a if c else b
  Tuple,      // (a, b)
  List,       // [a, b]
  Starred,    // *mods (only as a call argument)
  Lambda,     // lambda x: x + 1
  Comp,       // [e for x in xs if c], {k: v for ...}, {e for ...}, (e for ...)
  Dict,       // {"a": 1, "b": x}
  Set,        // {a, b}
  Ellipsis,   // ... (in subscripts and type hints)
};

// clang-format off
enum class BinOpKind {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, BitAnd, BitOr, BitXor, LShift, RShift
};
// clang-format on
enum class UnaryOpKind { Neg, Pos, Not, Invert };
enum class CmpOpKind { Lt, Gt, Le, Ge, Eq, Ne, Is, IsNot, In, NotIn };

const char* binop_symbol(BinOpKind op);  // "+", "//", "@", ...
const char* unaryop_symbol(UnaryOpKind op);
const char* cmpop_symbol(CmpOpKind op);

struct Expr {
  explicit Expr(ExprKind k, SourceRange r) : kind(k), range(std::move(r)) {}
  virtual ~Expr() = default;
  ExprKind kind;
  SourceRange range;

  template <typename T>
  T& as() {
    return static_cast<T&>(*this);
  }
  template <typename T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
};
using ExprPtr = std::unique_ptr<Expr>;

struct Name : Expr {
  Name(SourceRange r, std::string i) : Expr(ExprKind::Name, std::move(r)), id(std::move(i)) {}
  std::string id;
};
struct IntLit : Expr {
  IntLit(SourceRange r, int64_t v) : Expr(ExprKind::Int, std::move(r)), value(v) {}
  int64_t value;
};
struct FloatLit : Expr {
  FloatLit(SourceRange r, double v) : Expr(ExprKind::Float, std::move(r)), value(v) {}
  double value;
};
struct BoolLit : Expr {
  BoolLit(SourceRange r, bool v) : Expr(ExprKind::Bool, std::move(r)), value(v) {}
  bool value;
};
struct NoneLit : Expr {
  explicit NoneLit(SourceRange r) : Expr(ExprKind::None, std::move(r)) {}
};
struct StrLit : Expr {
  StrLit(SourceRange r, std::string v) : Expr(ExprKind::Str, std::move(r)), value(std::move(v)) {}
  std::string value;  // escapes already decoded
};
// f"a{x}b{y:.3f}": literal text and replacement fields in order.
struct FStringPart {
  std::string text;         // literal text (when expr is null)
  ExprPtr expr;             // a replacement field
  std::string format_spec;  // after ':' (e.g. ".3f"), empty when absent
  char conversion = 0;      // 'r', 's', 'a' after '!', or 0
};
struct FString : Expr {
  explicit FString(SourceRange r) : Expr(ExprKind::FString, std::move(r)) {}
  std::vector<FStringPart> parts;
};
struct Attribute : Expr {
  Attribute(SourceRange r, ExprPtr v, std::string a)
      : Expr(ExprKind::Attribute, std::move(r)), value(std::move(v)), attr(std::move(a)) {}
  ExprPtr value;
  std::string attr;
};
struct Keyword {
  SourceRange range;  // of `name=value`
  std::string name;
  ExprPtr value;
};
struct Call : Expr {
  explicit Call(SourceRange r) : Expr(ExprKind::Call, std::move(r)) {}
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
};
struct Slice : Expr {
  explicit Slice(SourceRange r) : Expr(ExprKind::Slice, std::move(r)) {}
  ExprPtr lower, upper, step;  // each may be null
};
struct Subscript : Expr {
  explicit Subscript(SourceRange r) : Expr(ExprKind::Subscript, std::move(r)) {}
  ExprPtr value;
  std::vector<ExprPtr> indices;  // one per comma-separated item; Slice or any expr
};
struct BinOp : Expr {
  BinOp(SourceRange r, BinOpKind o, ExprPtr l, ExprPtr rr)
      : Expr(ExprKind::BinOp, std::move(r)), op(o), lhs(std::move(l)), rhs(std::move(rr)) {}
  BinOpKind op;
  ExprPtr lhs, rhs;
  SourceRange op_range;  // of the operator token
};
struct UnaryOp : Expr {
  UnaryOp(SourceRange r, UnaryOpKind o, ExprPtr e)
      : Expr(ExprKind::UnaryOp, std::move(r)), op(o), operand(std::move(e)) {}
  UnaryOpKind op;
  ExprPtr operand;
};
// a < b <= c: ops.size() == comparators.size(); left is the first operand.
struct Compare : Expr {
  explicit Compare(SourceRange r) : Expr(ExprKind::Compare, std::move(r)) {}
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> comparators;
};
struct BoolOp : Expr {
  BoolOp(SourceRange r, bool is_and) : Expr(ExprKind::BoolOp, std::move(r)), is_and(is_and) {}
  bool is_and;                  // `and` when true, `or` otherwise
  std::vector<ExprPtr> values;  // two or more
};
struct IfExp : Expr {
  explicit IfExp(SourceRange r) : Expr(ExprKind::IfExp, std::move(r)) {}
  ExprPtr test, body, orelse;
};
struct TupleExpr : Expr {
  explicit TupleExpr(SourceRange r) : Expr(ExprKind::Tuple, std::move(r)) {}
  std::vector<ExprPtr> elts;
};
struct ListExpr : Expr {
  explicit ListExpr(SourceRange r) : Expr(ExprKind::List, std::move(r)) {}
  std::vector<ExprPtr> elts;
};
// `*value` in a call's positional arguments: the items of an iterable, spread.
struct Starred : Expr {
  Starred(SourceRange r, ExprPtr v) : Expr(ExprKind::Starred, std::move(r)), value(std::move(v)) {}
  ExprPtr value;
};

// `**value` in a call is a Keyword with an empty name.

struct FunctionDef;
// lambda params: body — kept as a FunctionDef named "<lambda>" whose body is one
// `return body`, so every route calls it as it calls a def.
struct Lambda : Expr {
  explicit Lambda(SourceRange r);
  ~Lambda() override;
  std::unique_ptr<FunctionDef> def;
};
// One `for target in iter if cond...` clause of a comprehension.
struct CompFor {
  ExprPtr target;
  ExprPtr iter;
  std::vector<ExprPtr> ifs;
};
enum class CompKind { List, Set, Dict, Generator };
struct Comp : Expr {
  Comp(SourceRange r, CompKind k) : Expr(ExprKind::Comp, std::move(r)), comp(k) {}
  CompKind comp;
  ExprPtr elt;    // the item (the key for a dict comprehension)
  ExprPtr value;  // a dict comprehension's value; null otherwise
  std::vector<CompFor> generators;
};
struct DictExpr : Expr {
  explicit DictExpr(SourceRange r) : Expr(ExprKind::Dict, std::move(r)) {}
  std::vector<ExprPtr> keys;  // a null key: `**values[i]` spreads a dict
  std::vector<ExprPtr> values;
};
struct SetExpr : Expr {
  explicit SetExpr(SourceRange r) : Expr(ExprKind::Set, std::move(r)) {}
  std::vector<ExprPtr> elts;
};
struct EllipsisLit : Expr {
  explicit EllipsisLit(SourceRange r) : Expr(ExprKind::Ellipsis, std::move(r)) {}
};

// ----------------------------------------------------------------- statements

enum class StmtKind {
  Expr,
  Assign,
  AugAssign,
  AnnAssign,
  If,
  For,
  While,
  With,
  Break,
  Continue,
  Return,
  Pass,
  Assert,
  FunctionDef,
  ClassDef,
  Import,
  ImportFrom,
  Delete,
  Raise,
  Try,
  Global,
};

struct Stmt {
  explicit Stmt(StmtKind k, SourceRange r) : kind(k), range(std::move(r)) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  SourceRange range;  // the statement's first token (its keyword, or its first expression)

  template <typename T>
  T& as() {
    return static_cast<T&>(*this);
  }
  template <typename T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct ExprStmt : Stmt {
  ExprStmt(SourceRange r, ExprPtr v) : Stmt(StmtKind::Expr, std::move(r)), value(std::move(v)) {}
  ExprPtr value;
};
// a = b = value: targets are Name, Attribute, Subscript or Tuple/List of targets.
struct Assign : Stmt {
  explicit Assign(SourceRange r) : Stmt(StmtKind::Assign, std::move(r)) {}
  std::vector<ExprPtr> targets;
  ExprPtr value;
};
struct AugAssign : Stmt {
  explicit AugAssign(SourceRange r) : Stmt(StmtKind::AugAssign, std::move(r)) {}
  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
  SourceRange op_range;
};
// x: int = 3 (value may be null)
struct AnnAssign : Stmt {
  explicit AnnAssign(SourceRange r) : Stmt(StmtKind::AnnAssign, std::move(r)) {}
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;
};
// `elif` is an If nested alone in orelse with is_elif set (its range is the elif).
struct If : Stmt {
  explicit If(SourceRange r) : Stmt(StmtKind::If, std::move(r)) {}
  ExprPtr test;
  Body body;
  Body orelse;
  bool is_elif = false;
};
struct For : Stmt {
  explicit For(SourceRange r) : Stmt(StmtKind::For, std::move(r)) {}
  ExprPtr target;  // Name or Tuple of Names
  ExprPtr iter;
  Body body;
};
struct While : Stmt {
  explicit While(SourceRange r) : Stmt(StmtKind::While, std::move(r)) {}
  ExprPtr test;
  Body body;
};
// with ITEM, ...: body. Each item is a context expression and its optional `as` name.
// Every route accepts only grad-mode context managers (grad_context below).
struct WithItem {
  ExprPtr context;
  ExprPtr target;  // a Name, or null without `as`
};
struct With : Stmt {
  explicit With(SourceRange r) : Stmt(StmtKind::With, std::move(r)) {}
  std::vector<WithItem> items;
  Body body;
};
struct Break : Stmt {
  explicit Break(SourceRange r) : Stmt(StmtKind::Break, std::move(r)) {}
};
struct Continue : Stmt {
  explicit Continue(SourceRange r) : Stmt(StmtKind::Continue, std::move(r)) {}
};
struct Pass : Stmt {
  explicit Pass(SourceRange r) : Stmt(StmtKind::Pass, std::move(r)) {}
};
struct Return : Stmt {
  explicit Return(SourceRange r) : Stmt(StmtKind::Return, std::move(r)) {}
  ExprPtr value;  // null for a bare return
};
struct Assert : Stmt {
  explicit Assert(SourceRange r) : Stmt(StmtKind::Assert, std::move(r)) {}
  ExprPtr test;
  ExprPtr msg;  // may be null
};
// A parameter: plain (positional or keyword), keyword-only (after `*` or `*args`),
// `*args` (a tuple of the extra positional arguments) or `**kwargs` (a dict).
enum class ParamKind { Normal, KwOnly, VarArgs, VarKw };
struct Param {
  SourceRange range;
  std::string name;
  ParamKind kind = ParamKind::Normal;
  ExprPtr annotation;     // may be null
  ExprPtr default_value;  // may be null
};
struct FunctionDef : Stmt {
  explicit FunctionDef(SourceRange r) : Stmt(StmtKind::FunctionDef, std::move(r)) {}
  std::string name;
  SourceRange name_range;
  std::vector<Param> params;
  ExprPtr returns;                  // may be null
  std::vector<ExprPtr> decorators;  // kept for messages; ignored by every route
  Body body;
};
struct ClassDef : Stmt {
  explicit ClassDef(SourceRange r) : Stmt(StmtKind::ClassDef, std::move(r)) {}
  std::string name;
  SourceRange name_range;
  std::vector<ExprPtr> bases;
  std::vector<ExprPtr> decorators;
  Body body;
};
struct ImportAlias {
  SourceRange range;
  std::string name;    // dotted module name for Import ("torch.nn"), plain for ImportFrom
  std::string asname;  // empty when there is no `as`
};
struct Import : Stmt {
  explicit Import(SourceRange r) : Stmt(StmtKind::Import, std::move(r)) {}
  std::vector<ImportAlias> names;
};
struct ImportFrom : Stmt {
  explicit ImportFrom(SourceRange r) : Stmt(StmtKind::ImportFrom, std::move(r)) {}
  std::string module;  // dotted
  std::vector<ImportAlias> names;
};

// del a, x[i], self.attr
struct Delete : Stmt {
  explicit Delete(SourceRange r) : Stmt(StmtKind::Delete, std::move(r)) {}
  std::vector<ExprPtr> targets;
};
// raise [exc [from cause]]
struct Raise : Stmt {
  explicit Raise(SourceRange r) : Stmt(StmtKind::Raise, std::move(r)) {}
  ExprPtr exc;    // null: re-raise the exception being handled
  ExprPtr cause;  // may be null
};
struct ExceptHandler {
  SourceRange range;  // of `except`
  ExprPtr type;       // null for a bare `except:`
  std::string name;   // after `as`, or empty
  Body body;
};
struct Try : Stmt {
  explicit Try(SourceRange r) : Stmt(StmtKind::Try, std::move(r)) {}
  Body body;
  std::vector<ExceptHandler> handlers;
  Body orelse;
  Body finalbody;
};
struct Global : Stmt {
  explicit Global(SourceRange r) : Stmt(StmtKind::Global, std::move(r)) {}
  std::vector<std::string> names;
};

struct Module {
  std::shared_ptr<const SourceFile> file;
  Body body;
};

// What a `with` context expression does to grad mode: `torch.no_grad()` and
// `torch.enable_grad()`, also imported bare (`no_grad()`), as the `@torch.no_grad()`
// decorator is recognised. Other means any other expression (not supported).
// torch.inference_mode() counts as NoGrad (d2s has no inference tensors).
enum class GradContext { Other, NoGrad, EnableGrad };
GradContext grad_context(const Expr& e);
// What every route says of a `with` on anything else.
inline constexpr const char* kOtherContextError =
    "NotSupportedError: this context manager is not supported by d2s";
inline constexpr const char* kOtherContextHint =
    "d2s runs 'with' only on torch.no_grad() and torch.enable_grad(); write the body without "
    "'with' (torch.inference_mode() counts as torch.no_grad())";

}  // namespace d2s::ast
