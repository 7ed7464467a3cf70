// The expression parser: a Pratt loop over one precedence table, plus the postfix
// chains (attribute, call, subscript) that bind tighter than any operator.
#include "parse/parser_impl.h"

namespace d2s::detail {

namespace {

// Binding power, lowest first (Python's order):
//   1  or            BoolOp, flat: a or b or c
//   2  and           BoolOp, flat
//   3  not           prefix only
//   4  < > == >= <= != is [not] [not] in   one Compare per chain: a < b <= c
//   5  |
//   6  ^
//   7  &
//   8  << >>
//   9  + -
//  10  * / // % @
//  11  - + ~         prefix only; their operand may hold '**': -x**2 is -(x**2)
//  12  **            right-associative; its right operand may be unary: 2**-1
// Above them all: the postfix chains (x.a, f(x), x[i]) and atoms. The conditional
// `a if c else b` is below `or` and is handled by parse_expr, not the table.
enum Prec : int {
  kOr = 1,
  kAnd,
  kNot,
  kCompare,
  kBitOr,
  kBitXor,
  kBitAnd,
  kShift,
  kSum,
  kTerm,
  kUnary,
  kPower,
};

static_assert(kOr == Parser::kOrPrec && kBitOr == Parser::kBitOrPrec);

struct InfixRule {
  enum Kind { None, Binary, Compare, And, Or } kind = None;
  int prec = 0;
  ast::BinOpKind op = ast::BinOpKind::Add;
  bool right_assoc = false;
};

InfixRule binary(int prec, ast::BinOpKind op, bool right = false) {
  return {InfixRule::Binary, prec, op, right};
}

// `second` is consulted only for `not in`.
InfixRule infix_rule(TokenKind first, TokenKind second) {
  using K = TokenKind;
  using B = ast::BinOpKind;
  switch (first) {
    case K::KwOr:
      return {InfixRule::Or, kOr};
    case K::KwAnd:
      return {InfixRule::And, kAnd};
    case K::KwNot:
      if (second != K::KwIn) return {};
      [[fallthrough]];
    case K::Lt:
    case K::Gt:
    case K::Le:
    case K::Ge:
    case K::Eq:
    case K::Ne:
    case K::KwIn:
    case K::KwIs:
      return {InfixRule::Compare, kCompare};
    case K::Pipe:
      return binary(kBitOr, B::BitOr);
    case K::Caret:
      return binary(kBitXor, B::BitXor);
    case K::Amp:
      return binary(kBitAnd, B::BitAnd);
    case K::LShift:
      return binary(kShift, B::LShift);
    case K::RShift:
      return binary(kShift, B::RShift);
    case K::Plus:
      return binary(kSum, B::Add);
    case K::Minus:
      return binary(kSum, B::Sub);
    case K::Star:
      return binary(kTerm, B::Mul);
    case K::Slash:
      return binary(kTerm, B::Div);
    case K::DoubleSlash:
      return binary(kTerm, B::FloorDiv);
    case K::Percent:
      return binary(kTerm, B::Mod);
    case K::At:
      return binary(kTerm, B::MatMul);
    case K::DoubleStar:
      return binary(kPower, B::Pow, true);
    default:
      return {};
  }
}

ast::CmpOpKind compare_op(TokenKind kind) {
  switch (kind) {
    case TokenKind::Lt:
      return ast::CmpOpKind::Lt;
    case TokenKind::Gt:
      return ast::CmpOpKind::Gt;
    case TokenKind::Le:
      return ast::CmpOpKind::Le;
    case TokenKind::Ge:
      return ast::CmpOpKind::Ge;
    case TokenKind::Eq:
      return ast::CmpOpKind::Eq;
    case TokenKind::Ne:
      return ast::CmpOpKind::Ne;
    case TokenKind::KwIs:
      return ast::CmpOpKind::Is;
    default:
      return ast::CmpOpKind::In;
  }
}

}  // namespace

bool Parser::starts_expression(const Token& tok) const {
  switch (tok.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String:
    case TokenKind::FString:
    case TokenKind::KwTrue:
    case TokenKind::KwFalse:
    case TokenKind::KwNone:
    case TokenKind::LParen:
    case TokenKind::LBracket:
    case TokenKind::LBrace:
    case TokenKind::Minus:
    case TokenKind::Plus:
    case TokenKind::Tilde:
    case TokenKind::KwNot:
    case TokenKind::KwLambda:
    case TokenKind::KwYield:
    case TokenKind::KwAwait:
    case TokenKind::Star:
    case TokenKind::Ellipsis:
      return true;
    default:
      return false;
  }
}

// exprlist := expr (',' expr)* [',']  -- a Tuple when it has a comma
ast::ExprPtr Parser::parse_exprlist() {
  SourceRange start = peek().range;
  ast::ExprPtr first = parse_expr();
  if (!at(TokenKind::Comma)) return first;
  auto tuple = std::make_unique<ast::TupleExpr>(start);
  tuple->elts.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (!starts_expression(peek())) break;
    tuple->elts.push_back(parse_expr());
  }
  tuple->range = since(start);
  return tuple;
}

// The targets of a for loop: like an exprlist, but of operands that cannot hold a
// comparison, so the `in` that follows is left alone.
ast::ExprPtr Parser::parse_target_list() {
  SourceRange start = peek().range;
  ast::ExprPtr first = parse_binary(kBitOr);
  if (!at(TokenKind::Comma)) return first;
  auto tuple = std::make_unique<ast::TupleExpr>(start);
  tuple->elts.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::KwIn)) break;
    tuple->elts.push_back(parse_binary(kBitOr));
  }
  tuple->range = since(start);
  return tuple;
}

// expr := or_expr ['if' or_expr 'else' expr]
ast::ExprPtr Parser::parse_expr() {
  if (at(TokenKind::KwLambda)) return parse_lambda();
  SourceRange start = peek().range;
  ast::ExprPtr body = parse_binary(kOr);
  if (at(TokenKind::KwIf)) {
    Token if_kw = take();
    Nest nest(*this, if_kw.range);
    auto cond = std::make_unique<ast::IfExp>(start);
    cond->body = std::move(body);
    cond->test = parse_binary(kOr);
    if (!at(TokenKind::KwElse)) {
      fail(peek().range, "SyntaxError: expected 'else' after 'if' expression",
           "a conditional expression needs both arms: a if condition else b");
    }
    take();
    cond->orelse = parse_expr();
    cond->range = since(start);
    body = std::move(cond);
  }
  if (at(TokenKind::Walrus)) {
    not_supported(peek().range, "':=' (assignment expression)", "assign in a separate statement");
  }
  return body;
}

ast::ExprPtr Parser::parse_binary(int min_prec) {
  SourceRange start = peek().range;
  ast::ExprPtr lhs = parse_prefix(min_prec);
  int saved_depth = depth_;
  while (true) {
    TokenKind first = peek().kind;
    InfixRule rule = infix_rule(first, first == TokenKind::KwNot ? peek(1).kind : first);
    if (rule.kind == InfixRule::None || rule.prec < min_prec) break;
    if (rule.kind == InfixRule::Compare) {
      auto cmp = std::make_unique<ast::Compare>(start);
      cmp->left = std::move(lhs);
      while (rule.kind == InfixRule::Compare) {
        Token op = take();
        ast::CmpOpKind kind = compare_op(op.kind);
        if (op.is(TokenKind::KwNot)) {
          take();  // the `in` of `not in`
          kind = ast::CmpOpKind::NotIn;
        } else if (op.is(TokenKind::KwIs) && accept(TokenKind::KwNot)) {
          kind = ast::CmpOpKind::IsNot;
        }
        cmp->ops.push_back(kind);
        cmp->comparators.push_back(parse_binary(kCompare + 1));
        first = peek().kind;
        rule = infix_rule(first, first == TokenKind::KwNot ? peek(1).kind : first);
      }
      cmp->range = since(start);
      lhs = std::move(cmp);
    } else if (rule.kind == InfixRule::And || rule.kind == InfixRule::Or) {
      bool is_and = rule.kind == InfixRule::And;
      auto op = std::make_unique<ast::BoolOp>(start, is_and);
      op->values.push_back(std::move(lhs));
      while (accept(is_and ? TokenKind::KwAnd : TokenKind::KwOr)) {
        op->values.push_back(parse_binary(rule.prec + 1));
      }
      op->range = since(start);
      lhs = std::move(op);
    } else {
      // Each operator of a left-associative chain deepens the tree by one, so it
      // counts as a level of nesting (10,000 '+' terms are an error, not a
      // 10,000-deep tree for later passes to recurse through).
      Token op = take();
      if (depth_ + 1 > limits_.max_nesting) fail_nesting(op.range);
      ++depth_;
      ast::ExprPtr rhs = parse_binary(rule.right_assoc ? rule.prec : rule.prec + 1);
      auto node =
          std::make_unique<ast::BinOp>(since(start), rule.op, std::move(lhs), std::move(rhs));
      node->op_range = op.range;
      lhs = std::move(node);
    }
  }
  depth_ = saved_depth;
  return lhs;
}

ast::ExprPtr Parser::parse_prefix(int min_prec) {
  const Token& tok = peek();
  switch (tok.kind) {
    case TokenKind::KwNot: {
      if (min_prec > kNot) {
        fail(tok.range, "SyntaxError: invalid syntax: 'not' cannot follow this operator",
             "wrap the negation in parentheses, e.g. a == (not b)");
      }
      Token op = take();
      Nest nest(*this, op.range);
      ast::ExprPtr operand = parse_binary(kNot);
      return std::make_unique<ast::UnaryOp>(since(op.range), ast::UnaryOpKind::Not,
                                            std::move(operand));
    }
    case TokenKind::Minus:
    case TokenKind::Plus:
    case TokenKind::Tilde: {
      Token op = take();
      Nest nest(*this, op.range);
      ast::ExprPtr operand = parse_binary(kUnary);
      ast::UnaryOpKind kind = op.is(TokenKind::Minus)  ? ast::UnaryOpKind::Neg
                              : op.is(TokenKind::Plus) ? ast::UnaryOpKind::Pos
                                                       : ast::UnaryOpKind::Invert;
      return std::make_unique<ast::UnaryOp>(since(op.range), kind, std::move(operand));
    }
    default: {
      SourceRange start = tok.range;
      ast::ExprPtr atom = parse_atom();
      return parse_postfix(std::move(atom), start);
    }
  }
}

// postfix := atom ('.' NAME | '(' args ')' | '[' subscripts ']')*
// Each link deepens the tree by one, so each counts as a level of nesting.
ast::ExprPtr Parser::parse_postfix(ast::ExprPtr value, const SourceRange& start) {
  int saved_depth = depth_;
  while (true) {
    TokenKind kind = peek().kind;
    if (kind != TokenKind::Dot && kind != TokenKind::LParen && kind != TokenKind::LBracket) break;
    if (depth_ + 1 > limits_.max_nesting) fail_nesting(peek().range);
    ++depth_;
    if (kind == TokenKind::Dot) {
      take();
      Token name = expect(TokenKind::Name, "an attribute name after '.'");
      value = std::make_unique<ast::Attribute>(since(start), std::move(value), name.text);
    } else if (kind == TokenKind::LParen) {
      auto call = std::make_unique<ast::Call>(start);
      call->func = std::move(value);
      parse_call_args(*call);
      call->range = since(start);
      value = std::move(call);
    } else {
      Token open = take();
      Nest nest(*this, open.range);
      auto sub = std::make_unique<ast::Subscript>(start);
      sub->value = std::move(value);
      if (at(TokenKind::RBracket)) unexpected(peek(), "an index");
      while (true) {
        sub->indices.push_back(parse_subscript_item());
        if (!accept(TokenKind::Comma) || at(TokenKind::RBracket)) break;
      }
      expect(TokenKind::RBracket, "',' or ']' in the subscript");
      sub->range = since(start);
      value = std::move(sub);
    }
  }
  depth_ = saved_depth;
  return value;
}

// subscript := expr | [expr] ':' [expr] [':' [expr]]
ast::ExprPtr Parser::parse_subscript_item() {
  SourceRange start = peek().range;
  ast::ExprPtr lower;
  if (!at(TokenKind::Colon)) {
    lower = parse_expr();
    if (!at(TokenKind::Colon)) return lower;
  }
  take();
  auto slice = std::make_unique<ast::Slice>(start);
  slice->lower = std::move(lower);
  auto ends_part = [&] {
    return at(TokenKind::Colon) || at(TokenKind::Comma) || at(TokenKind::RBracket);
  };
  if (!ends_part()) slice->upper = parse_expr();
  if (accept(TokenKind::Colon) && !ends_part()) slice->step = parse_expr();
  slice->range = since(start);
  return slice;
}

ast::ExprPtr Parser::parse_fstring_field() {
  ast::ExprPtr e = parse_exprlist();
  if (!at(TokenKind::EndOfFile)) unexpected(peek(), "'}' to end the f-string field");
  return e;
}

}  // namespace d2s::detail
