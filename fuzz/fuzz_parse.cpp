// libFuzzer target: the lexer and parser on arbitrary bytes. Any input must end in an
// AST or a d2s::Error; anything else (a crash, a sanitizer report, another exception
// type escaping) is a bug.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/base/error.h"
#include "core/base/source.h"
#include "parse/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<const d2s::SourceFile>(
      "fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  try {
    d2s::parse_program(file);
  } catch (const d2s::Error& e) {
    // The expected outcome for a bad program; formatting it must not crash either.
    (void)e.format();
  }
  return 0;
}
