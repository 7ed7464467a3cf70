#include "parse/script_names.h"

#include <algorithm>

namespace d2s::ast {
namespace {

void add_target(const Expr& target, std::vector<std::string>* names) {
  // Targets nest only as deep as the source writes them (`a, (b, c) = ...`); a worklist
  // keeps the order without recursion.
  std::vector<const Expr*> work{&target};
  while (!work.empty()) {
    const Expr* e = work.back();
    work.pop_back();
    switch (e->kind) {
      case ExprKind::Name: {
        const std::string& id = e->as<Name>().id;
        if (std::find(names->begin(), names->end(), id) == names->end()) names->push_back(id);
        break;
      }
      case ExprKind::Tuple: {
        const auto& elts = e->as<TupleExpr>().elts;
        for (auto it = elts.rbegin(); it != elts.rend(); ++it) work.push_back(it->get());
        break;
      }
      case ExprKind::List: {
        const auto& elts = e->as<ListExpr>().elts;
        for (auto it = elts.rbegin(); it != elts.rend(); ++it) work.push_back(it->get());
        break;
      }
      case ExprKind::Starred:
        work.push_back(e->as<Starred>().value.get());
        break;
      default:  // x[i] = ..., obj.attr = ...: no name is bound
        break;
    }
  }
}

}  // namespace

std::vector<std::string> script_assigned_names(const Module& module) {
  std::vector<std::string> names;
  // Bodies still to visit, each with the index of its next statement.
  std::vector<std::pair<const Body*, size_t>> work{{&module.body, 0}};
  while (!work.empty()) {
    auto& [body, index] = work.back();
    if (index >= body->size()) {
      work.pop_back();
      continue;
    }
    const Stmt& s = *(*body)[index++];
    switch (s.kind) {
      case StmtKind::Assign:
        for (const ExprPtr& t : s.as<Assign>().targets) add_target(*t, &names);
        break;
      case StmtKind::AugAssign:
        add_target(*s.as<AugAssign>().target, &names);
        break;
      case StmtKind::AnnAssign:
        if (s.as<AnnAssign>().value) add_target(*s.as<AnnAssign>().target, &names);
        break;
      case StmtKind::With: {
        const auto& w = s.as<With>();
        for (const WithItem& item : w.items) {
          if (item.target) add_target(*item.target, &names);
        }
        work.emplace_back(&w.body, 0);
        break;
      }
      default:
        // A name assigned only inside an `if`, `for` or `while` is bound on some paths
        // only: a temporary of that statement, not something the script computes on
        // every run (nor has the parse route a value for it after the statement).
        // def, class and imports bind no value the script computes.
        break;
    }
  }
  return names;
}

}  // namespace d2s::ast
