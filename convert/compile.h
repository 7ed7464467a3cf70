// The parse route behind `@torch.compile` in eager mode (trace/compile_hook.h): lowers a
// compiled function or module with lower_live_function() and runs the graph on the
// reference executor, its inputs the call's arguments and the modules' live parameter
// tensors, so that the executor's ops (which record autograd) send gradients back to
// the parameters the surrounding training loop optimizes. Keeps what `d2s run
// --explain` reports: each compiled function, lowered or fallen back, why, and its size.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "trace/compile_hook.h"

namespace d2s::convert {

struct CompileRecord {
  std::string name;
  SourceRange site;
  bool lowered = false;
  std::string reason;  // why it fell back
  size_t nodes = 0;    // the lowered graph's nodes, nested blocks included
  size_t inputs = 0;   // arguments plus parameters
  bool training = true;
};

class ParseRouteCompiler : public CompileHook {
 public:
  std::unique_ptr<CompiledCall> compile(const CompileRequest& request,
                                        std::string* why_not) override;
  const std::vector<CompileRecord>& records() const { return records_; }
  // The --explain report: one paragraph per compilation.
  void explain(std::ostream& os) const;

 private:
  std::vector<CompileRecord> records_;
};

}  // namespace d2s::convert
