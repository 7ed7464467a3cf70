// Decorators the routes honour by name (the others are accepted and ignored).
#pragma once

#include "parse/ast.h"

namespace d2s::ast {

// `@staticmethod` on a def in a class body: read through an instance, the function is
// not bound to it (minGPT's `@staticmethod def get_default_config()`).
inline bool is_staticmethod(const FunctionDef& def) {
  for (const ExprPtr& d : def.decorators) {
    if (d->kind == ExprKind::Name && d->as<Name>().id == "staticmethod") return true;
  }
  return false;
}

}  // namespace d2s::ast
