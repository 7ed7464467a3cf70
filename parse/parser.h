// The parser: model-program text to AST (grammar in parse/ast.h).
#pragma once

#include <memory>

#include "core/base/source.h"
#include "parse/ast.h"

namespace d2s {

// Limits that keep parsing bounded: deeper nesting is a clear error, not a crash.
struct ParseLimits {
  int max_nesting = 200;  // brackets, blocks and operator chains nested in one another
};

// Lexes and parses a whole file. Throws d2s::Error (exit 2) at the first error,
// with the offending range and a hint.
ast::Module parse_program(std::shared_ptr<const SourceFile> file, const ParseLimits& limits = {});

}  // namespace d2s
