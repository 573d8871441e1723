# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Shared pytest setup for the Python tests.

1. Dev builds: if EXECUTORCH_ASCEND_DEV_BUILD names a CMake build dir, point the package at the
   native parts built there (backend library, emulator atc and libascendcl.so, ascend_runner,
   the .ptd check library).
   This must happen before `executorch_ascend` is imported, because importing it loads the backend.
2. Source tree: make `src/` importable when the package is not pip-installed, and `examples/`
   (example models, parity helpers) always.
3. The tests run on the CANN emulator, chosen here explicitly (use_emulator()), as a user would.
4. The `emulator` marker: tests that need those native parts (deselect with -m "not emulator").
5. torch.export's scan for preservable CIA ops is remembered while the dispatcher's
   registrations stay the same, and torch._ops' Callable annotations are built once
   (cia_scan_memo.py: test speed only, the same result).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import cia_scan_memo
import pytest

REPO = Path(__file__).resolve().parents[2]

_DEV_BUILD_OUTPUTS = {
    "EXECUTORCH_ASCEND_BACKEND_LIB": "runtime/libexecutorch_backend_ascend.so",
    "EXECUTORCH_ASCEND_EMULATOR_ATC": "emulator/atc/atc",
    "EXECUTORCH_ASCEND_EMULATOR_ACL_LIB": "emulator/acl/libascendcl.so",
    "EXECUTORCH_ASCEND_RUNNER": "tools/runner/ascend_runner",
    "EXECUTORCH_ASCEND_PTD_CHECK_LIB": "tools/ptd_check/libexecutorch_ascend_ptd_check.so",
}


def _wire_dev_build() -> None:
    build = os.environ.get("EXECUTORCH_ASCEND_DEV_BUILD")
    if not build:
        return
    for env, rel in _DEV_BUILD_OUTPUTS.items():
        os.environ.setdefault(env, str(Path(build) / rel))


def _make_src_importable() -> None:
    try:
        import executorch_ascend  # noqa: F401
    except ModuleNotFoundError:
        sys.path.insert(0, str(REPO / "src"))
    # The shared example models and the parity helpers (not part of the package).
    sys.path.insert(0, str(REPO / "examples"))


def _choose_the_emulator() -> None:
    from executorch_ascend.toolchain import cann

    if cann.find_emulator() is not None:
        cann.use_emulator()  # else the `native` fixture says what is missing


_wire_dev_build()
_make_src_importable()
_choose_the_emulator()
cia_scan_memo.install()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "emulator: needs the built backend library, emulator atc/libascendcl.so and ascend_runner",
    )
    config.addinivalue_line(
        "markers",
        "long: a long run kept out of CI's time (scripts/test.sh deselects it); "
        "scripts/test_long.sh runs them",
    )


@pytest.fixture(scope="session")
def native() -> None:
    """Fails (not skips) when a native part is missing: these tests must run in CI."""
    from executorch_ascend import paths
    from executorch_ascend.toolchain import cann

    emulator = cann.find_emulator()
    missing = [
        f"{what}: {path}"
        for what, path in (
            ("backend library", paths.backend_library()),
            ("emulator atc", emulator.atc if emulator else Path("<no emulator>")),
            ("ascend_runner", paths.runner()),
            (".ptd check library", paths.ptd_check_library()),
            ("ACL library", cann.acl_library() or Path("<unset>")),
        )
        if not path.is_file()
    ]
    if missing:
        pytest.fail(
            "native parts missing (pip install the package and ./emulator, or set "
            "EXECUTORCH_ASCEND_DEV_BUILD to a build dir; deselect with -m 'not emulator'):\n  "
            + "\n  ".join(missing)
        )
