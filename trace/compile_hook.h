// `@torch.compile`, `torch.compile(fn)`, `torch.compile(model)` and `@torch.jit.script`
// in eager mode: "run this by the parse route". The interpreter wraps the function or
// module (trace/compiled_function.cpp); its first call asks a CompileHook to lower it
// to a graph, and later calls run that graph. The hook lives in convert/ (the lowering)
// and cli/ wires it in through RunOptions::compile_hook, so trace/ never calls the
// lowering itself (dependencies point downward: trace <- convert <- cli).
//
// Where the hook cannot lower the body, the interpreter runs it eagerly from then on
// and says so once on stderr, with the line and the reason.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/base/source.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/random.h"
#include "parse/ast.h"

namespace d2s {

namespace interp {
class InstanceValue;
}

struct CompileRequest {
  const ast::Module* module = nullptr;
  std::shared_ptr<const SourceFile> file;
  // The function to lower: a user function, or the forward of `self`.
  const ast::FunctionDef* function = nullptr;
  std::shared_ptr<interp::InstanceValue> self;  // torch.compile(model): the module
  std::string name;                             // "compiled_forward", "DynamicModel.forward"
  SourceRange site;                             // the decorator or the torch.compile call
  // The nn.Module instances the program holds in global names (`model`), which the
  // function may call: their parameters become graph inputs named `model.linear1.weight`.
  std::vector<std::pair<std::string, std::shared_ptr<interp::InstanceValue>>> modules;
  ValueList args;        // the first call's arguments (tensors): their shapes and dtypes
  bool training = true;  // the frozen `self.training` of the modules
};

// A lowered function, ready to run on the arguments of later calls. Gradients flow:
// the graph's ops run through the autograd-recording op path with the live parameter
// tensors as inputs.
class CompiledCall {
 public:
  virtual ~CompiledCall() = default;
  virtual IValue run(const ValueList& args, Generator& generator, std::ostream* out) = 0;
};

class CompileHook {
 public:
  virtual ~CompileHook() = default;
  // The compiled function, or null with `why_not` set (file:line:col: message) when
  // the body cannot be lowered.
  virtual std::unique_ptr<CompiledCall> compile(const CompileRequest& request,
                                                std::string* why_not) = 0;
};

}  // namespace d2s
