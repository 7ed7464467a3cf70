#!/usr/bin/env bash
# Sourced by sanitize.sh and fuzz.sh: the one clang build both use, so that CI compiles
# the project once for the sanitizer suite and the fuzzers. Every library, test and
# program gets ASan, UBSan and libFuzzer's coverage instrumentation (-DD2S_FUZZ=ON);
# only the fuzz targets link libFuzzer itself. -O1 -g1 compiles about as fast as -O0
# and runs the instrumented code several times faster; assertions stay on (Debug).
#
#   D2S_CLANG_BUILD   the build folder (default build-fuzz/)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
D2S_CLANG_BUILD="${D2S_CLANG_BUILD:-$D2S_ROOT/build-fuzz}"
# clang, its sanitizer and libFuzzer runtimes, and the OpenMP that clang links
# (core/CMakeLists.txt threads Eigen's products with OpenMP).
D2S_PACKAGES+=(clang libclang-rt-dev libomp-dev)

d2s_clang_configure() {
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  if [ ! -f "$D2S_CLANG_BUILD/CMakeCache.txt" ]; then
    cmake -S "$D2S_ROOT" -B "$D2S_CLANG_BUILD" "${generator[@]}" "${d2s_launcher[@]}" \
      -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
      -DD2S_FUZZ=ON -DD2S_BUILD_TESTS=ON -DD2S_BENCH=OFF >/dev/null
  fi
}
