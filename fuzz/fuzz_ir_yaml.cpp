// libFuzzer target: the graph YAML reader (core/io/graph_yaml.h) and the verifier on arbitrary
// bytes. A graph that loads must also verify, print and write back without crashing.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/base/error.h"
#include "core/base/source.h"
#include "core/io/graph_yaml.h"
#include "core/ir/printer.h"
#include "core/ir/verify.h"
#include "core/tensor/tensor.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Constant tensors in a graph file are bounded by the same per-tensor cap; keep it
  // below the fuzzer's memory limit.
  d2s::set_max_tensor_elements(int64_t{1} << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A name that is no regular file, so a `source:` key cannot make the reader load
  // files relative to the fuzzer's working folder.
  auto file = std::make_shared<const d2s::SourceFile>(
      "/nonexistent/fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size));
  try {
    auto graph = d2s::ir::graph_from_yaml(file);
    d2s::ir::verify(*graph);
    (void)d2s::ir::print_graph(*graph);
    (void)d2s::ir::graph_to_yaml(*graph);
  } catch (const d2s::Error& e) {
    (void)e.format();
  }
  return 0;
}
