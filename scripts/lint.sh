#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The style gates CONTRIBUTING.md asks for, as CI runs them (scripts/test.sh, before the long
# suites): ruff's lint and format check (pyproject.toml), clang-format 14 with the repository's
# .clang-format, and mypy on src/ ([tool.mypy] in pyproject.toml). The tools come from the test
# extras (pinned there, so every machine formats alike). Exits non-zero at the first gate that
# fails, after printing what it found.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "[lint] ruff check"
ruff check .
echo "[lint] ruff format --check"
ruff format --check .
# tests/abi_check/*/acl/ are stand-ins for CANN's own headers, kept in CANN's layout.
echo "[lint] clang-format --dry-run -Werror"
git ls-files -z '*.cc' '*.h' '*.cpp' '*.hpp' ':!:tests/abi_check/*/acl/*' |
  xargs -0 clang-format --dry-run -Werror
echo "[lint] mypy"
mypy
echo "[lint] all passed"
