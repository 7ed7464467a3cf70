// The checks every model d2s writes passes, and reading a model file.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

namespace d2s::onnx_io {

// onnx::checker::check_model (full check) and strict shape inference (type errors
// and inference errors are errors). Throws d2s::Error naming what failed; a failure
// here is a bug in the exporter, so the message says so.
void check_model_strict(onnx::ModelProto& model);

// Parses a serialized ModelProto; d2s::Error (exit 2) naming `path` for bytes that
// are not one.
onnx::ModelProto parse_model_bytes(const std::string& bytes, const std::string& path);
onnx::ModelProto read_model_file(const std::string& path);

}  // namespace d2s::onnx_io
