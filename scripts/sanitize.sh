#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The sanitizer and fuzzing jobs (docs/reliability.md): scripts/test.sh runs asan and
# fuzz beside the Python tests, scripts/test_long.sh runs tsan:
#   asan  the whole tree with clang at -O0 under ASan + UBSan (and libFuzzer's
#         coverage, so the fuzz harnesses are built in the same tree), and
#         every C++ test (ctest) against the instrumented libraries, twice: the
#         second time with oneDNN capped to AVX2;
#   fuzz  each libFuzzer target replays its regression inputs and fuzzes for
#         FUZZ_SECONDS (default 30) from its generated seeds (tests/fuzz/run.sh);
#   tsan  the backend, the emulator and their threaded tests under TSan.
# Usage: scripts/sanitize.sh [asan] [fuzz] [tsan]   (default: all three)
# Needs clang and the libFuzzer/sanitizer runtimes (installed if missing).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
jobs=("$@")
[ ${#jobs[@]} -eq 0 ] && jobs=(asan fuzz tsan)

if ! command -v clang++ >/dev/null || ! dpkg -s libclang-rt-14-dev >/dev/null 2>&1; then
  echo "[sanitize] installing clang and its sanitizer runtimes"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
fi
PY="$REPO_ROOT/.venv/bin/python3"
SITE="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
# Runs a step quietly into <log>; on failure shows the end of it.
quiet() {  # quiet <log> <command...>
  local log="$1"
  shift
  mkdir -p "$(dirname "$log")"
  if ! "$@" >"$log" 2>&1; then
    tail -n 200 "$log"
    echo "[sanitize] FAILED: $* (log: $log)"
    return 1
  fi
}
configure() {  # configure <dir> <sanitizers> <opt> [cmake args...]
  local dir="$1" sanitizers="$2" opt="$3"
  shift 3
  CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_C_FLAGS="$opt -gline-tables-only" -DCMAKE_CXX_FLAGS="$opt -gline-tables-only" \
    -DEXECUTORCH_ASCEND_BUILD_TESTS=ON -DEXECUTORCH_ASCEND_SANITIZE="$sanitizers" \
    -DCMAKE_PREFIX_PATH="$SITE" -DPython3_EXECUTABLE="$PY" "$@"
}
# Any finding fails the process; leaks are findings too.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"

for job in "${jobs[@]}"; do
  case "$job" in
    asan | fuzz)
      if [ ! -f build/sanitize/.configured ]; then
        quiet build/sanitize-logs/configure.log \
          configure build/sanitize fuzzer-no-link,address,undefined -O0 \
          -DEXECUTORCH_ASCEND_BUILD_FUZZERS=ON
        touch build/sanitize/.configured
      fi
      ;;&
    asan)
      echo "[sanitize] ASan+UBSan: building the tree (clang -O0)"
      quiet build/sanitize-logs/build.log cmake --build build/sanitize -j2
      echo "[sanitize] ASan+UBSan: ctest"
      quiet build/sanitize-logs/ctest.log \
        ctest --test-dir build/sanitize -j2 --output-on-failure
      tail -n 3 build/sanitize-logs/ctest.log
      # Every test must hold on every CPU the build supports (x86-64-v3 and up), not only on
      # this one: again with oneDNN's JIT kernels capped to AVX2 (oneDNN's own switch), whatever
      # this CPU has (docs/installing.md, "Which CPUs"). oneDNN's verbose header names the ISA.
      echo "[sanitize] ASan+UBSan: ctest again, oneDNN capped to AVX2 (ONEDNN_MAX_CPU_ISA=AVX2)"
      ONEDNN_MAX_CPU_ISA=AVX2 ONEDNN_VERBOSE=1 \
        build/sanitize/emulator/tests/engine/ascend_emu_kernels_test \
        --gtest_filter='KernelsConv.FirstLayer*' 2>&1 | grep -m1 'isa:' || true
      ONEDNN_MAX_CPU_ISA=AVX2 quiet build/sanitize-logs/ctest-avx2.log \
        ctest --test-dir build/sanitize -j2 --output-on-failure
      tail -n 3 build/sanitize-logs/ctest-avx2.log
      ;;
    fuzz)
      echo "[sanitize] fuzz: every target, ${FUZZ_SECONDS:-30} s each"
      BUILD_DIR="$REPO_ROOT/build/sanitize" SKIP_CONFIGURE=1 PYTHON="$PY" \
        tests/fuzz/run.sh "${FUZZ_SECONDS:-30}"
      ;;
    tsan)
      echo "[sanitize] TSan: building the backend, the emulator and their threaded tests (clang -O1)"
      quiet build/tsan-logs/configure.log configure build/tsan thread -O1
      quiet build/tsan-logs/build.log cmake --build build/tsan -j2 \
        --target runtime_backend_test runtime_acl_retry_test acl_emulator_tests \
        runtime_module_threads_test atc ascendcl
      # The threaded tests: the backend's whole suite (one ctest entry), one
      # Module per thread over real programs (its fixture writes them), and
      # the emulator's per-thread state, registry, execute path and stream
      # tests (each stream has a worker thread).
      ctest --test-dir build/tsan --output-on-failure \
        -R '^runtime_backend$|^runtime_acl_retry$|^runtime_module_threads$|PerThread|Concurrent|ExecutePathTest|StreamTest'
      ;;
    *)
      echo "unknown job '$job' (asan, fuzz, tsan)" >&2
      exit 2
      ;;
  esac
done
echo "[sanitize] all passed: ${jobs[*]}"
