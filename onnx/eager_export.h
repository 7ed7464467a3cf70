// The exporter behind `torch.onnx.export(...)` in eager mode (trace/export_hook.h): lowers
// the module's forward by the parse route with the example inputs' shapes (every dim
// static but the dynamic_axes ones, which become dim_params), in eval mode, and writes
// it with export_onnx() (checked, atomically) to the path the program gave. PyTorch
// exports a trace of the forward; this exports the parsed graph, so a data-dependent
// `if` or loop stays an ONNX If or Loop (docs/onnx.md).
#pragma once

#include <iosfwd>

#include "trace/export_hook.h"

namespace d2s::onnx_io {

class OnnxExportHook : public ExportHook {
 public:
  // `notes` receives the exporter's notes (prints left out, while loops bounded).
  explicit OnnxExportHook(std::ostream* notes) : notes_(notes) {}
  void export_model(const ExportRequest& request) override;

 private:
  std::ostream* notes_;
};

}  // namespace d2s::onnx_io
