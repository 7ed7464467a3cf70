#pragma once
// The names a script (the `<module>` entry) computes: every route makes the values of
// these names its outputs, so `d2s run`, `d2s trace` and `d2s parse` of a script show
// the same things (docs/language.md, "Scripts").

#include <string>
#include <vector>

#include "parse/ast.h"

namespace d2s::ast {

// The names the module's straight-line top-level statements assign (`=`, `op=`,
// annotated assignment, `with ... as`, also inside a top-level `with` body), each once,
// in the order they first appear as a target in the source text. Names assigned only
// inside an `if`, `for` or `while` are left out: they are bound on some paths only.
// Which of these become outputs depends on their values at the end (tensors and
// Python numbers), decided by each route.
std::vector<std::string> script_assigned_names(const Module& module);

}  // namespace d2s::ast
