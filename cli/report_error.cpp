// The one place where d2s prints a diagnostic (style.md: core produces structured
// errors, only cli/ prints them).
#include <iostream>

#include "cli/commands.h"

namespace d2s::cli {

int report_error(const Error& err) {
  std::string text = err.format();
  // Errors about no file in particular (a bad flag value, a missing file) read
  // "d2s: error: ...", like the usage errors; located ones start "file:line:col:".
  if (!err.range().file && !err.range().known()) text = "d2s: " + text;
  std::cout.flush();  // keep the program's prints before the message on a shared terminal
  std::cerr << text << std::flush;
  int code = err.exit_code();
  return code == 1 ? 1 : 2;  // the contract allows only 0, 1 and 2
}

int report_usage_error(const std::string& command_path, const std::string& message) {
  std::string msg = message;
  // CLI11 capitalises its messages; d2s's diagnostics are lowercase after "error:".
  if (!msg.empty() && msg[0] >= 'A' && msg[0] <= 'Z' &&
      (msg.size() < 2 || msg[1] < 'A' || msg[1] > 'Z')) {
    msg[0] = static_cast<char>(msg[0] - 'A' + 'a');
  }
  std::cerr << "d2s: error: " << msg << "\n"
            << "hint: see " << command_path << " --help\n"
            << std::flush;
  return 2;
}

int report_internal_error(const std::string& what) {
  std::cout.flush();
  std::cerr << "d2s: internal error: " << what << "\n"
            << "hint: this is a bug in d2s; please report it with the command line and files "
               "that caused it\n"
            << std::flush;
  return 2;
}

int not_available(const std::string& what, const std::string& reason) {
  std::cerr << "d2s " << what << ": not available yet in this version (" << reason << ")\n"
            << std::flush;
  return 2;
}

}  // namespace d2s::cli
