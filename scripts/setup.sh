#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# One-time (idempotent) set-up: Debian build dependencies, a venv in .venv,
# the pinned torch + executorch, the CANN emulator (its own package,
# emulator/, built into build/emulator) and executorch-ascend itself, built
# with its C++ tests (and the emulator they link; EXECUTORCH_ASCEND_CPP_TESTS=OFF leaves them
# out) into build/cmake. Sourced by scripts/demo.sh and scripts/test.sh.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

APT_PACKAGES=(libonnx-dev libprotobuf-dev protobuf-compiler libeigen3-dev libssl-dev zlib1g-dev libisal-dev
              flatbuffers-compiler libflatbuffers-dev
              libgtest-dev libgmock-dev libbenchmark-dev libdnnl-dev
              graphviz valgrind ccache)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[setup] installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv"
  "$PYTHON" -m venv .venv
  .venv/bin/pip install -q --upgrade pip
fi
# shellcheck disable=SC1091
source .venv/bin/activate

# torch first and alone: a bare `torch` requirement elsewhere would otherwise
# pull a multi-GB CUDA build instead of the pinned CPU one.
pip install -q "torch==2.13.0" "executorch==1.5.1" "scikit-build-core>=0.10" ninja cmake
# With the C++ tests the emulator is compiled twice below, standalone for its wheel
# (build/emulator) and in build/cmake beside the tests, with the same flags: ccache turns the
# second into cache hits, as it does for scripts/check_wheel.sh's backend wheel (CMake reads these
# variables from the environment as its launcher defaults).
if command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER="${CMAKE_C_COMPILER_LAUNCHER:-ccache}"
  export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
fi
echo "[setup] building and installing the CANN emulator (executorch-ascend-emulator)"
pip install -q --no-build-isolation ./emulator
# The C++ tests (and the in-tree emulator they link) build into build/cmake unless
# EXECUTORCH_ASCEND_CPP_TESTS=OFF: scripts/test.sh asks that and runs them in its ASan+UBSan
# tree (scripts/sanitize.sh), so CI compiles them once.
cpp_tests="${EXECUTORCH_ASCEND_CPP_TESTS:-ON}"
echo "[setup] building and installing executorch-ascend (C++ backend, runners; C++ tests: $cpp_tests)"
pip install -q --no-build-isolation ".[test]" \
  --config-settings=cmake.define.EXECUTORCH_ASCEND_BUILD_TESTS="$cpp_tests" \
  --config-settings=build-dir=build/cmake
# optimum-executorch pins transformers==5.0.0rc1; its code runs on the transformers pinned above,
# so it is installed without its pins (docs/llm.md, "Install optimum-executorch").
echo "[setup] installing optimum-executorch (the ascend recipe's tests)"
pip install -q "optimum==2.0.0" "accelerate==1.16.0"
pip install -q --no-deps "optimum-executorch==1.1.0"
echo "[setup] done: $(python -c 'import executorch_ascend as ea; print(ea.__file__)')"
