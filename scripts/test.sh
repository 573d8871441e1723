#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# Every test CI runs: the style gates (lint.sh), the wheels as a user installs them
# (check_wheel.sh), the Python suites (pytest) and the C++ suites (ctest), these in the ASan+UBSan
# tree of scripts/sanitize.sh: build/cmake is built without them (EXECUTORCH_ASCEND_CPP_TESTS=OFF),
# so CI compiles them once. The model zoo, the generation loops, the LLM example, the seq2seq
# models, the commands and examples that export whole models in child processes, and the optimum
# recipe, MoE and model tests run in a second pytest process beside the rest, one per core, so
# that the two take about as long (per-test times: --durations=0); both must pass. The sanitizer
# job (ctest under ASan+UBSan, again with oneDNN capped to AVX2, each fuzz target briefly) runs
# beside them and must pass too. The long runs, kept out of CI's 90 minutes, are
# scripts/test_long.sh's: the tests marked `long` (the zoo in float16 and on Ascend310P3), the
# threaded tests under TSan and the aarch64 job. Extra arguments go to both pytest runs.
set -euo pipefail
export EXECUTORCH_ASCEND_CPP_TESTS=OFF
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
echo "[test] style gates (scripts/lint.sh: ruff, clang-format, mypy)"
bash "$(dirname "${BASH_SOURCE[0]}")/lint.sh"
echo "[test] the wheels in a fresh venv, Debian's onnx/protobuf hidden (scripts/check_wheel.sh)"
bash scripts/check_wheel.sh

echo "[test] the C++ tests under ASan+UBSan and the fuzz jobs (scripts/sanitize.sh asan fuzz), beside the Python tests"
sanitize_log="$(mktemp -t ascend-sanitize.XXXXXX.log)"
# Each fuzz target 10 s here (30 by default): CI's time is shared.
FUZZ_SECONDS=10 bash scripts/sanitize.sh asan fuzz >"$sanitize_log" 2>&1 &
sanitize_pid=$!

echo "[test] Python tests (pytest): the model zoo and LLM tests, and the rest, side by side"
zoo_log="$(mktemp -t ascend-zoo.XXXXXX.log)"
slow=(tests/python/test_model_zoo.py tests/python/test_zoo_on_chip.py tests/python/test_llm_generation.py
      tests/python/test_llm_example.py tests/python/test_cli_export.py tests/python/test_examples.py
      tests/python/test_cpp_example.py tests/python/test_optimum_seq2seq.py
      tests/python/test_optimum_recipe.py tests/python/test_moe.py tests/python/test_models.py)
# The tests marked `long` (the zoo in float16 and on Ascend310P3) are scripts/test_long.sh's.
python -m pytest "${slow[@]}" -q -p no:cacheprovider -m "not long" "$@" >"$zoo_log" 2>&1 &
zoo_pid=$!
rest_status=0
python -m pytest tests/python -q "${slow[@]/#/--ignore=}" -m "not long" "$@" || rest_status=$?
zoo_status=0
wait "$zoo_pid" || zoo_status=$?
echo "[test] model zoo and LLM tests (${slow[*]}):"
cat "$zoo_log"
rm -f "$zoo_log"
sanitize_status=0
wait "$sanitize_pid" || sanitize_status=$?
echo "[test] ASan+UBSan and fuzz jobs (exit $sanitize_status):"
cat "$sanitize_log"
rm -f "$sanitize_log"
if [ "$sanitize_status" -ne 0 ]; then
  echo "[test] FAILED (scripts/sanitize.sh exit code $sanitize_status)"
  exit 1
fi
# pytest exits 5 when a selection (-k/-m) leaves a run with no tests: not a failure here.
for status in "$rest_status" "$zoo_status"; do
  if [ "$status" -ne 0 ] && [ "$status" -ne 5 ]; then
    echo "[test] FAILED (pytest exit codes: rest $rest_status, zoo $zoo_status)"
    exit 1
  fi
done
echo "[test] all passed"
