// Helpers shared by the parse/ tests.
#pragma once

#include <memory>
#include <string>

#include "core/base/error.h"
#include "core/base/source.h"
#include "parse/ast_dump.h"
#include "parse/parser.h"

namespace d2s::testing {

inline std::shared_ptr<const SourceFile> source(std::string text, std::string path = "m.py") {
  return std::make_shared<const SourceFile>(std::move(path), std::move(text));
}

inline ast::Module parse(std::string text, ParseLimits limits = {}) {
  return parse_program(source(std::move(text)), limits);
}

inline std::string dump(std::string text) {
  return dump_ast(parse(std::move(text)));
}

// The formatted error parsing `text` gives, or "no error".
inline std::string error_of(std::string text, ParseLimits limits = {}) {
  try {
    parse(std::move(text), limits);
  } catch (const Error& e) {
    return e.format();
  }
  return "no error";
}

}  // namespace d2s::testing
