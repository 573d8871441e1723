# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Loading of the C++ backend into this process's ExecuTorch runtime.

The Python runtime (executorch.runtime / pybindings) links executorch/lib/libexecutorch.so (soname
libexecutorch.so). The backend library links the same soname, so both must bind to that one file:
then "AscendBackend" is registered in the one registry the Python runtime reads. A second copy of
libexecutorch would hold a registry nobody reads.

The backend is loaded without importing the pybindings (which import torch and executorch.exir:
seconds): libexecutorch.so is first loaded from the executorch wheel's own lib/ folder, the file
the pybindings' RUNPATH ($ORIGIN/../../lib) names, and the loader then resolves the backend's
NEEDED libexecutorch.so, and later the pybindings', to that copy by its soname. Whichever of the
two is loaded first, there is one libexecutorch in the process.
"""

from __future__ import annotations

import ctypes
import importlib.util
import logging
import os
from pathlib import Path

from . import paths

logger = logging.getLogger(__name__)

_loaded: ctypes.CDLL | None = None


def executorch_core_library() -> Path | None:
    """The executorch wheel's libexecutorch.so, found without importing executorch."""
    spec = importlib.util.find_spec("executorch")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "lib" / "libexecutorch.so"
        if candidate.is_file():
            return candidate
    return None


def load_backend_library() -> ctypes.CDLL | None:
    """Registers AscendBackend with the in-process ExecuTorch runtime; None if it is absent."""
    global _loaded
    if _loaded is not None:
        return _loaded
    path = paths.backend_library()
    if not path.is_file():
        logger.warning(
            "AscendBackend runtime library not found at %s (set %s for a development build); "
            "lowering works, running .pte files with Ascend delegates in Python does not.",
            path,
            paths.ENV_BACKEND_LIB,
        )
        return None
    core = executorch_core_library()
    if core is not None:
        ctypes.CDLL(str(core), mode=os.RTLD_GLOBAL)
    else:  # an unusual executorch layout: let the pybindings load their libexecutorch first
        import executorch.extension.pybindings.portable_lib  # noqa: F401

    _loaded = ctypes.CDLL(str(path), mode=os.RTLD_GLOBAL)
    logger.debug("loaded %s (libexecutorch: %s)", path, core)
    return _loaded
