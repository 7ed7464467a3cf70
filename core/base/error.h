// The one error type of d2s.
//
// Everything that rejects input — the lexer, parser, interpreter, YAML readers,
// verifier, executor — throws d2s::Error with the source range it is about, a
// message and a hint. Only cli/ prints it, in one form:
//
//   model.py:5:8: error: NameError: name 'W_h' is not defined
//       h2h = torch.mm(W_h, prev_h.t())
//                      ^~~
//   hint: did you mean 'w_h'?
//
// exit_code() is what the d2s program exits with: 2 for bad input (the default),
// 1 for a check that failed on good input (a trace guard that no longer holds).
#pragma once

#include <stdexcept>
#include <string>

#include "core/base/source.h"

namespace d2s {

class Error : public std::exception {
 public:
  Error(std::string message, SourceRange range = {}, std::string hint = {}, int exit_code = 2);

  const std::string& message() const { return message_; }
  const SourceRange& range() const { return range_; }
  const std::string& hint() const { return hint_; }
  int exit_code() const { return exit_code_; }
  const char* what() const noexcept override { return message_.c_str(); }

  // The full diagnostic: location, message, source line, caret, hint.
  std::string format() const;

 private:
  std::string message_;
  SourceRange range_;
  std::string hint_;
  int exit_code_;
};

}  // namespace d2s
