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


def point_acl_at_bundled_emulator() -> None:
    """If no ACL was chosen (neither variable set), use the emulator installed with the package.

    The backend resolves ACL lazily (EXECUTORCH_ASCEND_ACL_LIB, then $ASCEND_HOME_PATH/lib64,
    then the loader path), so setting the variable here, before any program loads, is enough.
    Sourcing CANN's set_env.sh sets ASCEND_HOME_PATH and so keeps the real libascendcl.so.
    """
    if os.environ.get(paths.ENV_ACL_LIB) or os.environ.get("ASCEND_HOME_PATH"):
        return
    bundled = paths.bundled_emulator_acl()
    if bundled.is_file():
        os.environ[paths.ENV_ACL_LIB] = str(bundled)
        logger.info(
            "No CANN runtime configured; AscendBackend will use the emulator at %s", bundled
        )


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
