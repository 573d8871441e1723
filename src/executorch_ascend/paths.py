"""Where the package's native parts live, installed or in a development build.

`pip install` puts the C++ backend, the emulator and the runner inside the package
(see pyproject.toml / CMake install rules). A development build keeps them under
build/<dir>/, so each location has an environment override.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent

ENV_BACKEND_LIB = "EXECUTORCH_ASCEND_BACKEND_LIB"
ENV_EMULATOR_ATC = "EXECUTORCH_ASCEND_EMULATOR_ATC"
ENV_ACL_LIB = "EXECUTORCH_ASCEND_ACL_LIB"
ENV_RUNNER = "EXECUTORCH_ASCEND_RUNNER"


def _override(env: str, default: Path) -> Path:
    value = os.environ.get(env)
    return Path(value) if value else default


def backend_library() -> Path:
    """The C++ delegate library that registers "AscendBackend"."""
    return _override(ENV_BACKEND_LIB, PACKAGE_DIR / "lib" / "libexecutorch_backend_ascend.so")


def emulator_home() -> Path:
    """The bundled emulator, laid out like a CANN toolkit's $ASCEND_HOME_PATH."""
    return PACKAGE_DIR / "emulator"


def emulator_atc() -> Path:
    """The emulator's `atc`, which takes CANN's command line."""
    return _override(ENV_EMULATOR_ATC, emulator_home() / "bin" / "atc")


def bundled_emulator_acl() -> Path:
    """The emulator's libascendcl.so as installed inside the package."""
    return emulator_home() / "lib64" / "libascendcl.so"


def acl_library() -> Path | None:
    """The libascendcl.so the backend will load, resolved as the backend does.

    None means the backend falls back to dlopen("libascendcl.so") on the loader's path.
    """
    explicit = os.environ.get(ENV_ACL_LIB)
    if explicit:
        return Path(explicit)
    home = os.environ.get("ASCEND_HOME_PATH")
    if home:
        return Path(home) / "lib64" / "libascendcl.so"
    return None


def runner() -> Path:
    """The C++ `ascend_runner` (.pte/.ptd runner)."""
    return _override(ENV_RUNNER, PACKAGE_DIR / "bin" / "ascend_runner")
