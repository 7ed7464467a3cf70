// The checks every written model passes, and reading model files (model_check.h).
#include "onnx/model_check.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <fstream>
#include <sstream>

#include "core/base/error.h"

namespace d2s::onnx_io {

void check_model_strict(onnx::ModelProto& model) {
  try {
    onnx::checker::check_model(model);
    onnx::ShapeInferenceOptions options{/*check_type=*/true, /*error_mode=*/1,
                                        /*enable_data_propagation=*/false};
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    throw Error(std::string("the exported model does not pass ONNX's checks: ") + e.what(),
                SourceRange(),
                "this is a bug in d2s's exporter; please report it with the program");
  }
}

onnx::ModelProto parse_model_bytes(const std::string& bytes, const std::string& path) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) {
    throw Error("'" + path + "' is not an ONNX model (its bytes are not a ModelProto)",
                SourceRange(), "give a .onnx file written by torch.onnx.export or d2s export");
  }
  if (!model.has_graph()) {
    throw Error("'" + path + "' is not an ONNX model: it holds no graph", SourceRange(),
                "give a .onnx file written by torch.onnx.export or d2s export");
  }
  return model;
}

onnx::ModelProto read_model_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return parse_model_bytes(bytes.str(), path);
}

}  // namespace d2s::onnx_io
