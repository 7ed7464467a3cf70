// The if/for/while header index: conversions → the statement they decided.
#include "trace/trace_headers.h"

namespace d2s::trace_detail {

HeaderIndex::HeaderIndex(const ast::Module& module) {
  // An explicit stack of bodies: statement nesting never recurses here.
  std::vector<const ast::Body*> stack{&module.body};
  while (!stack.empty()) {
    const ast::Body* body = stack.back();
    stack.pop_back();
    for (const ast::StmtPtr& s : *body) {
      switch (s->kind) {
        case ast::StmtKind::If:
          stack.push_back(&s->as<ast::If>().body);
          stack.push_back(&s->as<ast::If>().orelse);
          break;
        case ast::StmtKind::For:
          stack.push_back(&s->as<ast::For>().body);
          break;
        case ast::StmtKind::While:
          stack.push_back(&s->as<ast::While>().body);
          break;
        case ast::StmtKind::With:
          stack.push_back(&s->as<ast::With>().body);
          continue;
        case ast::StmtKind::FunctionDef:
          stack.push_back(&s->as<ast::FunctionDef>().body);
          continue;
        case ast::StmtKind::ClassDef:
          stack.push_back(&s->as<ast::ClassDef>().body);
          continue;
        default:
          continue;
      }
      const SourceRange& h = header_of(*s);
      if (h.known()) by_line_[h.line].push_back(Header{h.col, h.col + h.len, s.get()});
    }
  }
}

const SourceRange& HeaderIndex::header_of(const ast::Stmt& stmt) {
  switch (stmt.kind) {
    case ast::StmtKind::If:
      return stmt.as<ast::If>().test->range;
    case ast::StmtKind::For:
      return stmt.as<ast::For>().iter->range;
    case ast::StmtKind::While:
      return stmt.as<ast::While>().test->range;
    default:
      return stmt.range;
  }
}

void HeaderIndex::note(const SourceRange& range, Provenance from) {
  auto it = by_line_.find(range.line);
  if (it == by_line_.end()) return;
  // Headers are expressions, which hold no statements: at most one contains the range.
  for (const Header& h : it->second) {
    if (h.col_begin <= range.col && range.col + range.len <= h.col_end) {
      auto [slot, inserted] = pending_.try_emplace(h.stmt, from);
      if (!inserted) slot->second = combine(slot->second, from);
      return;
    }
  }
}

Provenance HeaderIndex::take(const ast::Stmt& stmt) {
  auto it = pending_.find(&stmt);
  if (it == pending_.end()) return Provenance::Constant;
  Provenance p = it->second;
  pending_.erase(it);
  return p;
}

}  // namespace d2s::trace_detail
