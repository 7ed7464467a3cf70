// One small program through every route d2s has, as fuzz_pipeline feeds it and as the
// replay test (fuzz/tests/regressions_test.cpp) feeds the inputs fuzzing found: eager
// (trace/interpreter.h), trace (trace/tracer.h), and parse → lower (convert/lower.h) →
// verify → execute on the Executor, on small inputs with tight limits so that every
// run is short. Each route must end in a result or a d2s::Error (caught here); anything
// else — a crash, a sanitizer report, another exception escaping, a hang — is a bug.
#pragma once

#include <string_view>

namespace d2s::fuzz {

// Lowers the process-wide per-tensor limit (the library side of
// --max-tensor-elements) so that a huge shape tests the limit's message rather than
// the machine's memory. Call once before run_every_route.
void set_pipeline_limits();

// Runs the program `text` (named fuzz.py) through every route.
void run_every_route(std::string_view text);

}  // namespace d2s::fuzz
