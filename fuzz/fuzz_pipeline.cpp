// libFuzzer target: small programs through every route (fuzz/pipeline_routes.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/pipeline_routes.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  d2s::fuzz::set_pipeline_limits();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  d2s::fuzz::run_every_route(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
