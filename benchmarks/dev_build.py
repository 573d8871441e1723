# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The native parts of a CMake build tree, for the benchmarks (tests/python/conftest.py does the
same for the tests): EXECUTORCH_ASCEND_DEV_BUILD=<build dir>, or a script's --dev-build, points
the package at the backend library, the emulator's atc and libascendcl.so built there. Must run
before executorch_ascend is imported, which loads the backend."""

from __future__ import annotations

import os
from pathlib import Path

OUTPUTS = {
    "EXECUTORCH_ASCEND_BACKEND_LIB": "runtime/libexecutorch_backend_ascend.so",
    "EXECUTORCH_ASCEND_EMULATOR_ATC": "emulator/atc/atc",
    "EXECUTORCH_ASCEND_EMULATOR_ACL_LIB": "emulator/acl/libascendcl.so",
}


def environment(build: Path) -> dict[str, str]:
    """The variables naming the native parts of `build`."""
    return {env: str(build.resolve() / rel) for env, rel in OUTPUTS.items()}


def wire(build: Path | None = None) -> None:
    """Sets the variables for `build`, else for $EXECUTORCH_ASCEND_DEV_BUILD if set (without
    overriding variables already set)."""
    if build is None:
        named = os.environ.get("EXECUTORCH_ASCEND_DEV_BUILD")
        if not named:
            return
        build = Path(named)
    for env, path in environment(build).items():
        os.environ.setdefault(env, path)
