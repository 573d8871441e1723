# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Where the package's own native parts live, installed or in a development build.

`pip install` puts the C++ backend and the runner inside the package (pyproject.toml / CMake
install rules); a development build keeps them under build/cmake/, so each has an environment
override. Where CANN (or the emulator) is, is toolchain/cann.py's business.
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


def llm_runner() -> Path:
    """The C++ `llm_runner` (greedy generation with an exported decoder, docs/llm.md)."""
    return PACKAGE_DIR / "bin" / "llm_runner"


def cmake_prefix() -> Path:
    """The folder to put on CMAKE_PREFIX_PATH for `find_package(executorch_ascend CONFIG)`.

    The installed package itself: its config file is share/cmake/executorch_ascend/ beneath it
    (docs/cpp-integration.md). A shell can ask without importing the package (whose import loads
    the AOT stack): docs/cpp-integration.md has the one-liner.
    """
    return PACKAGE_DIR


def cmake_config_dir() -> Path:
    """The folder holding executorch_ascendConfig.cmake (a value for executorch_ascend_DIR)."""
    return PACKAGE_DIR / "share" / "cmake" / "executorch_ascend"
