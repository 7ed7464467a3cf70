// Reading an ONNX model as a graph for `d2s run` and `d2s render` (commands.h).
#include "cli/commands.h"
#include "onnx/import.h"
#include "onnx/model_check.h"
#include "onnx/tensor_proto.h"

namespace d2s::cli {

bool is_onnx_path(const std::string& path) {
  return extension_of(path) == ".onnx";
}

std::unique_ptr<ir::Graph> load_onnx_graph(const std::string& path,
                                           std::vector<std::pair<std::string, Tensor>>* params) {
  onnx::ModelProto model = onnx_io::read_model_file(path);
  onnx_io::ImportOptions opts;
  opts.scalar_inputs = true;
  try {
    onnx_io::ImportedModel imported = onnx_io::import_onnx(model, path, opts);
    if (params) *params = std::move(imported.parameters);
    return std::move(imported.graph);
  } catch (const onnx_io::Unsupported& e) {
    throw Error(std::string("cannot import the ONNX model: ") + e.what(), SourceRange(),
                "docs/onnx.md lists the ONNX ops and types d2s reads");
  }
}

}  // namespace d2s::cli
