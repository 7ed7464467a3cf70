#include "parse/ast_dump.h"

#include <charconv>
#include <cstdio>
#include <vector>

#include "core/base/text.h"

namespace d2s {

namespace {

using namespace ast;

std::string float_text(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".eninf") == std::string::npos) s += ".0";
  return s;
}

std::string opt(const ExprPtr& e) {
  return e ? dump_expr(*e) : "_";
}

std::string list(const std::vector<ExprPtr>& items) {
  std::string out;
  for (const ExprPtr& e : items) out += " " + dump_expr(*e);
  return out;
}

class StmtDumper {
 public:
  std::vector<std::string> lines;

  void body(const Body& stmts, int indent) {
    for (const StmtPtr& s : stmts) stmt(*s, indent);
  }

  void stmt(const Stmt& s, int indent) {
    std::string pad(static_cast<size_t>(indent), ' ');
    switch (s.kind) {
      case StmtKind::If: {
        const auto& node = s.as<If>();
        lines.push_back(pad + (node.is_elif ? "(elif " : "(if ") + dump_expr(*node.test));
        body(node.body, indent + 2);
        if (!node.orelse.empty()) {
          lines.push_back(pad + "  (else");
          body(node.orelse, indent + 4);
          lines.back() += ")";
        }
        break;
      }
      case StmtKind::For: {
        const auto& node = s.as<For>();
        lines.push_back(pad + "(for " + dump_expr(*node.target) + " " + dump_expr(*node.iter));
        body(node.body, indent + 2);
        break;
      }
      case StmtKind::While: {
        const auto& node = s.as<While>();
        lines.push_back(pad + "(while " + dump_expr(*node.test));
        body(node.body, indent + 2);
        break;
      }
      case StmtKind::With: {
        std::string head = pad + "(with";
        for (const WithItem& item : s.as<With>().items) {
          head += item.target
                      ? " (" + dump_expr(*item.context) + " as " + dump_expr(*item.target) + ")"
                      : " " + dump_expr(*item.context);
        }
        lines.push_back(head);
        body(s.as<With>().body, indent + 2);
        break;
      }
      case StmtKind::FunctionDef: {
        const auto& node = s.as<FunctionDef>();
        std::string head = pad + "(def " + node.name + " (";
        for (size_t i = 0; i < node.params.size(); ++i) {
          const Param& p = node.params[i];
          if (i) head += " ";
          if (p.kind == ParamKind::VarArgs) head += "*";
          if (p.kind == ParamKind::VarKw) head += "**";
          if (p.kind == ParamKind::KwOnly) head += "kw:";
          if (!p.annotation && !p.default_value) {
            head += p.name;
            continue;
          }
          head += "(" + p.name;
          if (p.annotation) head += " : " + dump_expr(*p.annotation);
          if (p.default_value) head += " = " + dump_expr(*p.default_value);
          head += ")";
        }
        head += ")";
        if (node.returns) head += " -> " + dump_expr(*node.returns);
        lines.push_back(head);
        for (const ExprPtr& d : node.decorators) {
          lines.push_back(pad + "  (decorator " + dump_expr(*d) + ")");
        }
        body(node.body, indent + 2);
        break;
      }
      case StmtKind::ClassDef: {
        const auto& node = s.as<ClassDef>();
        std::string bases = list(node.bases);
        lines.push_back(pad + "(class " + node.name + " (" +
                        (bases.empty() ? "" : bases.substr(1)) + ")");
        for (const ExprPtr& d : node.decorators) {
          lines.push_back(pad + "  (decorator " + dump_expr(*d) + ")");
        }
        body(node.body, indent + 2);
        break;
      }
      case StmtKind::Try: {
        const auto& node = s.as<Try>();
        lines.push_back(pad + "(try");
        body(node.body, indent + 2);
        for (const ExceptHandler& h : node.handlers) {
          lines.push_back(pad + "  (except " + opt(h.type) +
                          (h.name.empty() ? "" : " as " + h.name));
          body(h.body, indent + 4);
          lines.back() += ")";
        }
        if (!node.orelse.empty()) {
          lines.push_back(pad + "  (else");
          body(node.orelse, indent + 4);
          lines.back() += ")";
        }
        if (!node.finalbody.empty()) {
          lines.push_back(pad + "  (finally");
          body(node.finalbody, indent + 4);
          lines.back() += ")";
        }
        break;
      }
      default:
        lines.push_back(pad + simple(s));
        return;
    }
    lines.back() += ")";
  }

  static std::string simple(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Expr:
        return "(expr " + dump_expr(*s.as<ExprStmt>().value) + ")";
      case StmtKind::Assign: {
        const auto& node = s.as<Assign>();
        return "(=" + list(node.targets) + " " + dump_expr(*node.value) + ")";
      }
      case StmtKind::AugAssign: {
        const auto& node = s.as<AugAssign>();
        return std::string("(") + binop_symbol(node.op) + "= " + dump_expr(*node.target) + " " +
               dump_expr(*node.value) + ")";
      }
      case StmtKind::AnnAssign: {
        const auto& node = s.as<AnnAssign>();
        return "(ann " + dump_expr(*node.target) + " " + dump_expr(*node.annotation) +
               (node.value ? " " + dump_expr(*node.value) : "") + ")";
      }
      case StmtKind::Break:
        return "(break)";
      case StmtKind::Continue:
        return "(continue)";
      case StmtKind::Pass:
        return "(pass)";
      case StmtKind::Return: {
        const auto& node = s.as<Return>();
        return node.value ? "(return " + dump_expr(*node.value) + ")" : "(return)";
      }
      case StmtKind::Assert: {
        const auto& node = s.as<Assert>();
        return "(assert " + dump_expr(*node.test) + (node.msg ? " " + dump_expr(*node.msg) : "") +
               ")";
      }
      case StmtKind::Import: {
        std::string out = "(import";
        for (const ImportAlias& a : s.as<Import>().names) {
          out += a.asname.empty() ? " " + a.name : " (" + a.name + " as " + a.asname + ")";
        }
        return out + ")";
      }
      case StmtKind::ImportFrom: {
        const auto& node = s.as<ImportFrom>();
        std::string out = "(from " + node.module + " import";
        for (const ImportAlias& a : node.names) {
          out += a.asname.empty() ? " " + a.name : " (" + a.name + " as " + a.asname + ")";
        }
        return out + ")";
      }
      case StmtKind::Delete:
        return "(del" + list(s.as<Delete>().targets) + ")";
      case StmtKind::Raise: {
        const auto& node = s.as<Raise>();
        return "(raise " + opt(node.exc) + (node.cause ? " from " + dump_expr(*node.cause) : "") +
               ")";
      }
      case StmtKind::Global: {
        std::string out = "(global";
        for (const std::string& n : s.as<Global>().names) out += " " + n;
        return out + ")";
      }
      default:
        return "(?)";
    }
  }
};

}  // namespace

std::string dump_expr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Name:
      return e.as<Name>().id;
    case ExprKind::Int:
      return std::to_string(e.as<IntLit>().value);
    case ExprKind::Float:
      return float_text(e.as<FloatLit>().value);
    case ExprKind::Bool:
      return e.as<BoolLit>().value ? "True" : "False";
    case ExprKind::None:
      return "None";
    case ExprKind::Str:
      return quote_string(e.as<StrLit>().value);
    case ExprKind::FString: {
      std::string out = "(fstr";
      for (const FStringPart& p : e.as<FString>().parts) {
        if (!p.expr) {
          out += " " + quote_string(p.text);
          continue;
        }
        out += " {" + dump_expr(*p.expr);
        if (p.conversion) out += std::string(" !") + p.conversion;
        if (!p.format_spec.empty()) out += " :" + p.format_spec;
        out += "}";
      }
      return out + ")";
    }
    case ExprKind::Attribute: {
      const auto& node = e.as<Attribute>();
      return "(. " + dump_expr(*node.value) + " " + node.attr + ")";
    }
    case ExprKind::Call: {
      const auto& node = e.as<Call>();
      std::string out = "(call " + dump_expr(*node.func) + list(node.args);
      for (const Keyword& k : node.keywords)
        out += " (= " + k.name + " " + dump_expr(*k.value) + ")";
      return out + ")";
    }
    case ExprKind::Subscript: {
      const auto& node = e.as<Subscript>();
      return "(sub " + dump_expr(*node.value) + list(node.indices) + ")";
    }
    case ExprKind::Slice: {
      const auto& node = e.as<Slice>();
      return "(slice " + opt(node.lower) + " " + opt(node.upper) + " " + opt(node.step) + ")";
    }
    case ExprKind::BinOp: {
      const auto& node = e.as<BinOp>();
      return std::string("(") + binop_symbol(node.op) + " " + dump_expr(*node.lhs) + " " +
             dump_expr(*node.rhs) + ")";
    }
    case ExprKind::UnaryOp: {
      const auto& node = e.as<UnaryOp>();
      return std::string("(") + unaryop_symbol(node.op) + " " + dump_expr(*node.operand) + ")";
    }
    case ExprKind::Compare: {
      const auto& node = e.as<Compare>();
      std::string out = "(cmp " + dump_expr(*node.left);
      for (size_t i = 0; i < node.ops.size() && i < node.comparators.size(); ++i) {
        out += std::string(" ") + cmpop_symbol(node.ops[i]) + " " + dump_expr(*node.comparators[i]);
      }
      return out + ")";
    }
    case ExprKind::BoolOp: {
      const auto& node = e.as<BoolOp>();
      return std::string(node.is_and ? "(and" : "(or") + list(node.values) + ")";
    }
    case ExprKind::IfExp: {
      const auto& node = e.as<IfExp>();
      return "(ifexp " + dump_expr(*node.test) + " " + dump_expr(*node.body) + " " +
             dump_expr(*node.orelse) + ")";
    }
    case ExprKind::Tuple:
      return "(tuple" + list(e.as<TupleExpr>().elts) + ")";
    case ExprKind::List:
      return "(list" + list(e.as<ListExpr>().elts) + ")";
    case ExprKind::Starred:
      return "(* " + dump_expr(*e.as<Starred>().value) + ")";
    case ExprKind::Lambda: {
      const FunctionDef& def = *e.as<Lambda>().def;
      std::string out = "(lambda";
      for (const Param& p : def.params) out += " " + p.name;
      return out + " " + dump_expr(*def.body[0]->as<Return>().value) + ")";
    }
    case ExprKind::Comp: {
      const auto& node = e.as<Comp>();
      static const char* kNames[] = {"listcomp", "setcomp", "dictcomp", "genexp"};
      std::string out = std::string("(") + kNames[static_cast<int>(node.comp)] + " " +
                        dump_expr(*node.elt) + (node.value ? " " + dump_expr(*node.value) : "");
      for (const CompFor& g : node.generators) {
        out += " (for " + dump_expr(*g.target) + " " + dump_expr(*g.iter) + list(g.ifs) + ")";
      }
      return out + ")";
    }
    case ExprKind::Dict: {
      const auto& node = e.as<DictExpr>();
      std::string out = "(dict";
      for (size_t i = 0; i < node.keys.size(); ++i) {
        out += " (" + opt(node.keys[i]) + " " + dump_expr(*node.values[i]) + ")";
      }
      return out + ")";
    }
    case ExprKind::Set:
      return "(set" + list(e.as<SetExpr>().elts) + ")";
    case ExprKind::Ellipsis:
      return "...";
  }
  return "?";
}

std::string dump_stmt(const Stmt& stmt) {
  StmtDumper d;
  d.stmt(stmt, 0);
  std::string out;
  for (size_t i = 0; i < d.lines.size(); ++i) out += (i ? "\n" : "") + d.lines[i];
  return out;
}

std::string dump_ast(const Module& module) {
  StmtDumper d;
  d.body(module.body, 0);
  std::string out;
  for (const std::string& line : d.lines) out += line + "\n";
  return out;
}

}  // namespace d2s
