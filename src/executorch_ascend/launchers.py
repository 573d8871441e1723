# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The `ascend_runner` and `llm_runner` commands a pip install puts on PATH.

The binaries stay in the package (executorch_ascend/bin), where their relative RUNPATH reaches the
backend and ExecuTorch's libraries; a copy in the scripts folder could not, since that folder's
distance to site-packages differs between venvs, --user and --target installs. Each launcher
replaces itself with the binary (exec), so arguments, signals and the exit code are the binary's.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from . import paths


def _exec(binary: Path, name: str) -> None:
    if not binary.is_file():
        sys.stderr.write(f"{name}: {binary} is missing; reinstall executorch-ascend\n")
        raise SystemExit(127)
    os.execv(binary, [name, *sys.argv[1:]])


def ascend_runner() -> None:
    """Run the C++ ascend_runner (paths.runner(), so EXECUTORCH_ASCEND_RUNNER overrides it)."""
    _exec(paths.runner(), "ascend_runner")


def llm_runner() -> None:
    """Run the C++ llm_runner."""
    _exec(paths.llm_runner(), "llm_runner")
