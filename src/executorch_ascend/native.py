# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Loading of the C++ backend into this process's ExecuTorch runtime.

The Python runtime (executorch.runtime / pybindings) links executorch/lib/libexecutorch.so. The
backend library links the same file, so loading it with RTLD_GLOBAL after the pybindings registers
"AscendBackend" in the one registry the Python runtime uses. Loading it first, or a second copy of
libexecutorch, would register it in a registry nobody reads.
"""

from __future__ import annotations

import ctypes
import logging
import os

from . import paths

logger = logging.getLogger(__name__)

_loaded: ctypes.CDLL | None = None


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
    # The pybindings load libexecutorch.so; the backend must bind to that same copy.
    import executorch.extension.pybindings.portable_lib  # noqa: F401

    _loaded = ctypes.CDLL(str(path), mode=os.RTLD_GLOBAL)
    logger.debug("loaded %s", path)
    return _loaded
