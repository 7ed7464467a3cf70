// `torch.onnx.export(model, args, "model.onnx", ...)` in eager mode: "write this module's
// forward as an ONNX file". The interpreter checks the call's arguments
// (trace/onnx_export_call.cpp) and hands the module, the example inputs and the options
// to an ExportHook; the hook lowers the forward by the parse route and writes the file.
// The hook lives in onnx/ (the exporter) and cli/ wires it in through
// RunOptions::export_hook, so trace/ never calls the lowering or the exporter itself
// (dependencies point downward: trace <- convert <- onnx <- cli), as compile_hook.h does
// for torch.compile. Without a hook (d2s trace, the parse route) the call is an error.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/base/source.h"
#include "core/tensor/ivalue.h"
#include "parse/ast.h"

namespace d2s {

namespace interp {
class InstanceValue;
}

struct ExportRequest {
  const ast::Module* module = nullptr;
  std::shared_ptr<const SourceFile> file;
  const ast::FunctionDef* forward = nullptr;    // the module's forward
  std::shared_ptr<interp::InstanceValue> self;  // the module (in eval mode while exporting)
  std::string name;                             // "DynamicModel.forward"
  SourceRange site;                             // the torch.onnx.export call
  ValueList args;                               // the example inputs (tensors)
  std::string path;  // as the program wrote it: a relative path is relative to the cwd
  std::vector<std::string> input_names;   // names of the first inputs, in order
  std::vector<std::string> output_names;  // names of the first outputs, in order
  // input name -> (dim -> label): those dims are free (dim_param); every other dim of an
  // input has the example's size, as torch.onnx.export writes it.
  std::map<std::string, std::map<int64_t, std::string>> dynamic_axes;
  int opset = 17;
};

class ExportHook {
 public:
  virtual ~ExportHook() = default;
  // Writes the file (atomically). Throws d2s::Error when the forward cannot be lowered
  // or exported; an error without a source position is reported at `site`.
  virtual void export_model(const ExportRequest& request) = 0;
};

}  // namespace d2s
