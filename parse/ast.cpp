#include "parse/ast.h"

namespace d2s::ast {

Lambda::Lambda(SourceRange r) : Expr(ExprKind::Lambda, std::move(r)) {}
Lambda::~Lambda() = default;

const char* binop_symbol(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add:
      return "+";
    case BinOpKind::Sub:
      return "-";
    case BinOpKind::Mul:
      return "*";
    case BinOpKind::Div:
      return "/";
    case BinOpKind::FloorDiv:
      return "//";
    case BinOpKind::Mod:
      return "%";
    case BinOpKind::Pow:
      return "**";
    case BinOpKind::MatMul:
      return "@";
    case BinOpKind::BitAnd:
      return "&";
    case BinOpKind::BitOr:
      return "|";
    case BinOpKind::BitXor:
      return "^";
    case BinOpKind::LShift:
      return "<<";
    case BinOpKind::RShift:
      return ">>";
  }
  return "?";
}

const char* unaryop_symbol(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::Neg:
      return "-";
    case UnaryOpKind::Pos:
      return "+";
    case UnaryOpKind::Not:
      return "not";
    case UnaryOpKind::Invert:
      return "~";
  }
  return "?";
}

const char* cmpop_symbol(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Lt:
      return "<";
    case CmpOpKind::Gt:
      return ">";
    case CmpOpKind::Le:
      return "<=";
    case CmpOpKind::Ge:
      return ">=";
    case CmpOpKind::Eq:
      return "==";
    case CmpOpKind::Ne:
      return "!=";
    case CmpOpKind::Is:
      return "is";
    case CmpOpKind::IsNot:
      return "is not";
    case CmpOpKind::In:
      return "in";
    case CmpOpKind::NotIn:
      return "not in";
  }
  return "?";
}

GradContext grad_context(const Expr& e) {
  if (e.kind != ExprKind::Call) return GradContext::Other;
  const auto& call = e.as<Call>();
  if (!call.args.empty() || !call.keywords.empty()) return GradContext::Other;
  const Expr& f = *call.func;
  std::string name;
  if (f.kind == ExprKind::Name) {
    name = f.as<Name>().id;
  } else if (f.kind == ExprKind::Attribute && f.as<Attribute>().value->kind == ExprKind::Name &&
             f.as<Attribute>().value->as<Name>().id == "torch") {
    name = f.as<Attribute>().attr;
  }
  if (name == "no_grad" || name == "inference_mode") return GradContext::NoGrad;
  if (name == "enable_grad") return GradContext::EnableGrad;
  return GradContext::Other;
}

}  // namespace d2s::ast
