// libFuzzer target: bytes as a serialized ONNX ModelProto, imported into the IR and
// verified (onnx/import.h). A parse failure, an unsupported op or type and any d2s::Error
// are expected outcomes; a crash, a sanitizer report, a hang or unbounded memory is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/error.h"
#include "core/ir/verify.h"
#include "onnx/import.h"
#include "onnx/model_check.h"
#include "onnx/tensor_proto.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    onnx::ModelProto model = d2s::onnx_io::parse_model_bytes(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz.onnx");
    d2s::onnx_io::ImportedModel imported = d2s::onnx_io::import_onnx(model, "fuzz.onnx");
    d2s::ir::verify(*imported.graph);
  } catch (const d2s::Error&) {
  } catch (const d2s::onnx_io::Unsupported&) {
  }
  return 0;
}
