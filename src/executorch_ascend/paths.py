# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Where the package's own native parts live, installed or in a development build.

`pip install` puts the C++ backend and the runner inside the package (pyproject.toml / CMake
install rules); a development build keeps them under build/cmake/, so each has an environment
override. Where CANN (or the emulator) is, is cann.py's business.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent

ENV_BACKEND_LIB = "EXECUTORCH_ASCEND_BACKEND_LIB"
ENV_RUNNER = "EXECUTORCH_ASCEND_RUNNER"
ENV_PTD_CHECK_LIB = "EXECUTORCH_ASCEND_PTD_CHECK_LIB"


def _override(env: str, default: Path) -> Path:
    value = os.environ.get(env)
    return Path(value) if value else default


def backend_library() -> Path:
    """The C++ delegate library that registers AscendBackend."""
    return _override(ENV_BACKEND_LIB, PACKAGE_DIR / "lib" / "libexecutorch_backend_ascend.so")


def ptd_check_library() -> Path:
    """The .ptd structure check (tools/ptd_check) as a C library, for run helpers."""
    return _override(ENV_PTD_CHECK_LIB, PACKAGE_DIR / "lib" / "libexecutorch_ascend_ptd_check.so")


def runner() -> Path:
    """The C++ `ascend_runner` (.pte/.ptd runner)."""
    return _override(ENV_RUNNER, PACKAGE_DIR / "bin" / "ascend_runner")
