// Helpers shared by the interpreter's tests: run a program from a string and capture
// what it prints, its result, or the d2s::Error it throws.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/base/error.h"
#include "trace/interpreter.h"

namespace d2s::testing {

// Runs `src` (entry chosen as the CLI would) and returns what it printed.
inline std::string run_print(const std::string& src, const NamedInputs& inputs = {},
                             RunOptions opts = {}) {
  Program p = Program::from_string(src);
  std::ostringstream out;
  opts.out = &out;
  p.run(inputs, opts);
  return out.str();
}

// Runs `src` and returns the entry's result.
inline IValue run_value(const std::string& src, const NamedInputs& inputs = {},
                        RunOptions opts = {}) {
  Program p = Program::from_string(src);
  std::ostringstream out;
  opts.out = &out;
  return p.run(inputs, opts);
}

// Runs `src` expecting a d2s::Error, and returns it (a failed expectation otherwise).
inline Error run_error(const std::string& src, const NamedInputs& inputs = {},
                       RunOptions opts = {}) {
  try {
    run_print(src, inputs, opts);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an error from:\n" << src;
  return Error("no error");
}

inline RunOptions with_entry(const std::string& entry) {
  RunOptions o;
  o.entry = entry;
  return o;
}

inline Tensor floats(const Shape& shape, const std::vector<float>& data) {
  return Tensor::from_floats(shape, data);
}

}  // namespace d2s::testing
