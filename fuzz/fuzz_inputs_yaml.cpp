// libFuzzer target: the inputs and weights YAML readers (core/io/yaml_io.h) on arbitrary
// bytes. A file must give input sets / weights or a d2s::Error, never a crash; yaml-cpp's
// own exceptions must not escape either (yaml_io turns them into located errors).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/base/error.h"
#include "core/base/source.h"
#include "core/io/yaml_io.h"
#include "core/tensor/tensor.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Keep `fill:` of huge shapes within the fuzzer's memory limit: the cap itself (and
  // its message) is what is under test, not the machine's RAM.
  d2s::set_max_tensor_elements(int64_t{1} << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<const d2s::SourceFile>(
      "fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size));
  try {
    d2s::parse_input_sets(file, 0);
  } catch (const d2s::Error& e) {
    (void)e.format();
  }
  try {
    d2s::parse_weights(file, 0);
  } catch (const d2s::Error& e) {
    (void)e.format();
  }
  return 0;
}
