// Which `if` test, `for` iterable or `while` condition a conversion happened in, so
// that the TraceLog can say what each branch and trip count came from (internal to
// trace/).
//
// The interpreter reports conversions with their expression's range and reports the
// if/loop statement only afterwards. The statement headers are indexed once, by line,
// from the AST; each conversion inside a header adds its provenance to that statement's
// pending provenance, which on_if / on_loop then take. A value baked earlier and used
// in a header (`n = int(t)` ... `range(n)`) is converted again inside the header, so
// it counts there too.
#pragma once

#include <unordered_map>
#include <vector>

#include "core/base/source.h"
#include "parse/ast.h"
#include "trace/trace_log.h"

namespace d2s::trace_detail {

class HeaderIndex {
 public:
  // Indexes every if/elif test, for iterable and while condition of `module`
  // (functions and class bodies included). Iterative: no recursion on nesting.
  explicit HeaderIndex(const ast::Module& module);

  // A conversion at `range` with provenance `from` happened.
  void note(const SourceRange& range, Provenance from);
  // What the conversions in `stmt`'s header since the last take() came from
  // (Constant when there were none); resets it.
  Provenance take(const ast::Stmt& stmt);

  // The header expression of an if / for / while statement.
  static const SourceRange& header_of(const ast::Stmt& stmt);

 private:
  struct Header {
    int col_begin;
    int col_end;  // one past the last column
    const ast::Stmt* stmt;
  };
  std::unordered_map<int, std::vector<Header>> by_line_;
  std::unordered_map<const ast::Stmt*, Provenance> pending_;
};

}  // namespace d2s::trace_detail
