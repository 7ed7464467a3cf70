#!/usr/bin/env bash
# Sets up (Debian packages), builds (Release) and runs every test suite with ctest:
# the unit suites of each module, the d2s program end to end, and the live
# PyTorch parity suite.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
d2s_install_packages
d2s_build
cd "$D2S_BUILD"
ctest --output-on-failure -j "$(nproc)" "$@"
