#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The long runs kept out of CI's 90 minutes (scripts/test.sh runs everything else):
# - pytest's `long` marker: the model zoo in float16 (45 models, about 9 minutes on one core) and
#   the whole zoo compiled and run as Ascend310P3 (scripts/zoo_on_chip.py, about 8 minutes);
# - the threaded tests under TSan (scripts/sanitize.sh tsan: a clang -O1 tree of the backend and
#   the emulator, about 10 core-minutes);
# - the aarch64 job (scripts/aarch64.sh: the cross build, about 12 core-minutes, and the demo's
#   program, a decoder and the saved programs run under qemu-aarch64 against the x86-64 run).
# Run them before a change to the lowering, the precision rules, the kernels, the threading or
# anything architecture-specific lands. The TSan and aarch64 jobs run beside pytest; all must pass.
# Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
bash scripts/aarch64.sh setup  # its apt-get before sanitize.sh's (one dpkg lock)

tsan_log="$(mktemp -t ascend-tsan.XXXXXX.log)"
bash scripts/sanitize.sh tsan >"$tsan_log" 2>&1 &
tsan_pid=$!
aarch64_log="$(mktemp -t ascend-aarch64.XXXXXX.log)"
bash scripts/aarch64.sh build run >"$aarch64_log" 2>&1 &
aarch64_pid=$!

pytest_status=0
python -m pytest tests/python -q -p no:cacheprovider -m long "$@" || pytest_status=$?
tsan_status=0
wait "$tsan_pid" || tsan_status=$?
echo "[test_long] TSan (exit $tsan_status):"
cat "$tsan_log"
aarch64_status=0
wait "$aarch64_pid" || aarch64_status=$?
echo "[test_long] aarch64 build and parity run (exit $aarch64_status):"
cat "$aarch64_log"
rm -f "$tsan_log" "$aarch64_log"
if [ "$pytest_status" -ne 0 ] || [ "$tsan_status" -ne 0 ] || [ "$aarch64_status" -ne 0 ]; then
  echo "[test_long] FAILED (pytest $pytest_status, tsan $tsan_status, aarch64 $aarch64_status)"
  exit 1
fi
echo "[test_long] all passed"
