#!/usr/bin/env bash
# Every test: the C++ suites (ctest) and the Python suites (pytest).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
echo "[test] C++ tests (ctest)"
ctest --test-dir build/cmake --output-on-failure -j2
echo "[test] Python tests (pytest)"
python -m pytest tests/python -q "$@"
