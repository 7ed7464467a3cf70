// d2s_bench: Google Benchmark's main plus `--programs=DIR`, the folder of workloads
// bench/gen_programs.py wrote. scripts/bench.sh runs it; see BENCHMARKS.md.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "bench/bench_common.h"
#include "core/base/allocator.h"

int main(int argc, char** argv) {
  d2s::configure_process_allocator();  // as the d2s program sets it up
  benchmark::Initialize(&argc, argv);
  const char* const flag = "--programs=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], flag, std::strlen(flag)) == 0) {
      d2s::bench::set_programs_dir(argv[i] + std::strlen(flag));
    } else {
      benchmark::ReportUnrecognizedArguments(argc, argv);
      return 2;
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
