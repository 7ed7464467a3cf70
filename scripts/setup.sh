#!/usr/bin/env bash
# Installs the Debian packages d2s needs (when missing) and builds it (Release) in build/.
# Sourced by demo.sh and test.sh; run alone it only sets up and builds.
set -euo pipefail

D2S_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
D2S_BUILD="${D2S_BUILD:-$D2S_ROOT/build}"

# Everything comes from Debian: compilers and build tools, the libraries d2s links,
# PyTorch for the live parity tests (it serves /usr/bin/python3), and headless Chromium
# for the HTML report's browser test.
D2S_PACKAGES=(
  cmake ninja-build g++ pkg-config clang-format
  libeigen3-dev libyaml-cpp-dev libcli11-dev libgtest-dev libgmock-dev libgraphviz-dev
  libbenchmark-dev
  python3 python3-torch python3-yaml python3-numpy
  chromium
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata nodejs npm
)

# Packages a command on PATH stands for: a machine with Node.js from elsewhere (its own
# npm bundled) has node and npm without Debian's packages, and Debian's npm cannot be
# installed beside it.
declare -A D2S_PACKAGE_COMMANDS=([nodejs]=node [npm]=npm)

d2s_missing_packages() {
  local missing=() p
  for p in "${D2S_PACKAGES[@]}"; do
    if [ -n "${D2S_PACKAGE_COMMANDS[$p]:-}" ] && command -v "${D2S_PACKAGE_COMMANDS[$p]}" >/dev/null; then
      continue
    fi
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  echo "${missing[@]:-}"
}

d2s_install_packages() {
  local missing
  missing="$(d2s_missing_packages)"
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "d2s: these Debian packages are missing: $missing" >&2
    echo "d2s: install them with:" >&2
    echo "  sudo apt-get install -y --no-install-recommends $missing" >&2
    exit 2
  fi
  echo "d2s: installing $missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# ccache, where it is installed (it is optional, not in D2S_PACKAGES): a rebuild in
# another clone or worktree of the project reuses what an earlier build compiled.
# Paths under the project root are hashed relative to it, so clones in different
# folders share the cache.
d2s_launcher=()
if command -v ccache >/dev/null; then
  d2s_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$D2S_ROOT" CCACHE_NOHASHDIR=1
fi

d2s_build() {
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  if [ ! -f "$D2S_BUILD/CMakeCache.txt" ]; then
    cmake -S "$D2S_ROOT" -B "$D2S_BUILD" "${generator[@]}" "${d2s_launcher[@]}" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$D2S_BUILD" -j "$(nproc)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  d2s_install_packages
  d2s_build
fi
