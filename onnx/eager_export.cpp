#include "onnx/eager_export.h"

#include <ostream>

#include "convert/grad_graph.h"
#include "convert/lower.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "onnx/export.h"

namespace d2s::onnx_io {

void OnnxExportHook::export_model(const ExportRequest& request) {
  convert::LiveFunction f;
  f.module = request.module;
  f.file = request.file;
  f.function = request.forward;
  f.name = request.name;
  f.self = request.self;
  f.training = false;
  // The dims dynamic_axes frees, by argument (named by input_names or the parameter).
  std::vector<std::map<int64_t, std::string>> free(request.args.size());
  const std::vector<ast::Param>& params = request.forward->params;
  for (size_t i = 0; i < request.args.size(); ++i) {
    const Tensor& t = request.args[i].to_tensor();
    f.arg_shapes.push_back(t.shape());
    f.arg_dtypes.push_back(t.dtype());
    std::string name = i < request.input_names.size() ? request.input_names[i]
                       : i + 1 < params.size()        ? params[i + 1].name
                                                      : std::string();
    auto it = request.dynamic_axes.find(name);
    if (it == request.dynamic_axes.end()) continue;
    for (const auto& [dim, label] : it->second) {
      if (dim < 0 || dim >= static_cast<int64_t>(t.shape().size())) {
        throw Error("dynamic_axes['" + name + "'] names dim " + std::to_string(dim) +
                        ", which the example input (rank " + std::to_string(t.shape().size()) +
                        ") does not have",
                    request.site, "name a dim from 0 to the input's rank - 1");
      }
      free[i][dim] = label;
    }
  }
  f.arg_free_dims = std::move(free);
  convert::LoweredGraph lowered = convert::lower_live_function(f);
  convert::functionalize(*lowered.graph);  // ONNX values are immutable: no in-place ops

  ExportOptions opts;
  opts.opset = request.opset;
  opts.parameters = lowered.parameters;
  opts.input_names = request.input_names;
  opts.output_names = request.output_names;
  opts.dynamic_axes = request.dynamic_axes;
  std::vector<std::string> notes;
  std::string bytes = export_onnx(*lowered.graph, opts, &notes);
  if (notes_) {
    for (const std::string& n : notes) *notes_ << n << "\n";
  }
  write_file_atomic(request.path, bytes);
}

}  // namespace d2s::onnx_io
