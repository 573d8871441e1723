# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Where CANN is: the one resolver of the ACL library and of atc, and the explicit switch to the
CANN emulator.

The rule's names are data, acl_library.json beside this file, which the C++ backend
(runtime/acl_library.cpp) and llm_runner (tools/llm_runner/acl_traffic.cpp) read too (a header
generated from it at build time), so all three follow the same rule. Current CANN splits ACL
into libacl_rt.so (runtime functions) and libacl_mdl.so (model functions, aclmdl*) and keeps
libascendcl.so, with every function, as a compatibility library:

1. EXECUTORCH_ASCEND_ACL_LIB, an explicit library path (a libacl_rt.so or libacl_mdl.so there
   means the pair in that folder);
2. $ASCEND_HOME_PATH/lib64, else $ASCEND_TOOLKIT_HOME/lib64 (CANN's set_env.sh sets both):
   libacl_rt.so + libacl_mdl.so when both are there, else libascendcl.so;
3. the loader's path: libacl_rt.so + libacl_mdl.so when both load, else libascendcl.so.

atc follows the same homes: an explicit path, then <home>/bin/atc, then `atc` on PATH.

The emulator (the executorch-ascend-emulator package, or a development build) is used only when
chosen: use_emulator(), or EXECUTORCH_ASCEND_USE_EMULATOR=1 at import. It then takes the place of
CANN for both the backend (EXECUTORCH_ASCEND_ACL_LIB) and atc (toolchain "auto"), never silently.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

logger = logging.getLogger(__name__)

_ACL = json.loads(
    resources.files("executorch_ascend").joinpath("acl_library.json").read_text("utf-8")
)
#: Where the ACL library names and CANN's home variables come from (repository@commit:files).
ACL_LIBRARY_SOURCE: str = _ACL["source"]

ENV_ACL_LIB: str = _ACL["explicit_variable"]
ENV_USE_EMULATOR = "EXECUTORCH_ASCEND_USE_EMULATOR"
# A development build's emulator, instead of the installed package's.
ENV_EMULATOR_ATC = "EXECUTORCH_ASCEND_EMULATOR_ATC"
ENV_EMULATOR_ACL_LIB = "EXECUTORCH_ASCEND_EMULATOR_ACL_LIB"
HOME_VARIABLES: tuple[str, ...] = tuple(_ACL["home_variables"])
# The folder of a CANN home that holds its libraries.
LIBRARY_FOLDER: str = _ACL["library_folder"]


class EmulatorNotFound(RuntimeError):
    """use_emulator() was called but no emulator is installed or configured."""


def _env(name: str) -> str | None:
    value = os.environ.get(name)
    return value if value else None


def cann_home() -> Path | None:
    """The CANN toolkit's root from the environment, or None."""
    for name in HOME_VARIABLES:
        home = _env(name)
        if home:
            return Path(home)
    return None


SINGLE_ACL_LIBRARY: str = _ACL["single_library"]
RUNTIME_ACL_LIBRARY: str = _ACL["runtime_library"]
MODEL_ACL_LIBRARY: str = _ACL["model_library"]


def acl_libraries() -> tuple[Path, ...] | None:
    """The ACL libraries the backend will load: (libacl_rt.so, libacl_mdl.so), or
    (libascendcl.so,); None means the loader's path decides (the pair when both load, else
    libascendcl.so)."""
    explicit = _env(ENV_ACL_LIB)
    if explicit:
        path = Path(explicit)
        if path.name in (RUNTIME_ACL_LIBRARY, MODEL_ACL_LIBRARY):
            return (path.parent / RUNTIME_ACL_LIBRARY, path.parent / MODEL_ACL_LIBRARY)
        return (path,)
    home = cann_home()
    if home is None:
        return None
    lib64 = home / LIBRARY_FOLDER
    pair = (lib64 / RUNTIME_ACL_LIBRARY, lib64 / MODEL_ACL_LIBRARY)
    if all(p.exists() for p in pair):
        return pair
    return (lib64 / SINGLE_ACL_LIBRARY,)


def acl_library() -> Path | None:
    """The library holding the runtime functions the backend will load (libacl_rt.so of the pair,
    or libascendcl.so); None means the loader's path decides (acl_libraries())."""
    libraries = acl_libraries()
    return libraries[0] if libraries else None


def describe_acl_libraries(libraries: tuple[Path, ...] | None) -> str:
    """How `executorch-ascend info` names what acl_libraries() returned."""
    if libraries is None:
        return (
            f"{RUNTIME_ACL_LIBRARY} + {MODEL_ACL_LIBRARY} from the loader path if both load, "
            f"else {SINGLE_ACL_LIBRARY}"
        )
    if len(libraries) == 2:
        return f"{libraries[0]} + {libraries[1]} (CANN's split layout)"
    return f"{libraries[0]} (single library)"


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def cann_atc(explicit: str | None = None) -> Path | None:
    """CANN's atc: `explicit`, else <home>/bin/atc, else `atc` on PATH unless it is the
    emulator's."""
    if explicit:
        return Path(explicit)
    home = cann_home()
    if home and _executable(home / "bin" / "atc"):
        return home / "bin" / "atc"
    on_path = shutil.which("atc")
    if on_path and not _is_emulator_atc(Path(on_path)):
        return Path(on_path)
    return None


@dataclass(frozen=True)
class Emulator:
    atc: Path
    acl_library: Path


def find_emulator() -> Emulator | None:
    """The emulator's atc and libascendcl.so: the development-build variables, else the
    executorch-ascend-emulator package; None when neither exists."""
    atc, lib = _env(ENV_EMULATOR_ATC), _env(ENV_EMULATOR_ACL_LIB)
    try:
        import executorch_ascend_emulator as package
    except ImportError:
        package = None
    if package is not None:
        atc = atc or str(package.atc())
        lib = lib or str(package.acl_library())
    if atc is None or lib is None:
        return None
    return Emulator(Path(atc), Path(lib))


def _is_emulator_atc(path: Path) -> bool:
    emulator = find_emulator()
    try:
        return emulator is not None and path.resolve() == emulator.atc.resolve()
    except OSError:
        return False


_chosen: Emulator | None = None


def use_emulator() -> Emulator:
    """Runs everything on the CANN emulator from here on: toolchain "auto" compiles with its atc,
    and the backend loads its libascendcl.so (call before the first program is loaded; an explicit
    EXECUTORCH_ASCEND_ACL_LIB is kept). Raises EmulatorNotFound when there is none."""
    global _chosen
    emulator = find_emulator()
    if emulator is None:
        raise EmulatorNotFound(
            "no CANN emulator: pip install ./emulator (the executorch-ascend-emulator package), "
            f"or set {ENV_EMULATOR_ATC} and {ENV_EMULATOR_ACL_LIB} to a development build"
        )
    if not _env(ENV_ACL_LIB):
        os.environ[ENV_ACL_LIB] = str(emulator.acl_library)
    _chosen = emulator
    logger.info("AscendBackend runs on the CANN emulator (%s)", emulator.acl_library)
    return emulator


def chosen_emulator() -> Emulator | None:
    """The emulator use_emulator() chose, or None while CANN is the target."""
    return _chosen


def use_emulator_if_requested() -> None:
    """use_emulator() when EXECUTORCH_ASCEND_USE_EMULATOR=1 (called at import)."""
    value = _env(ENV_USE_EMULATOR)
    if value is None or value == "0":
        return
    if value != "1":
        raise ValueError(f"{ENV_USE_EMULATOR} must be 0 or 1, got {value!r}")
    use_emulator()
